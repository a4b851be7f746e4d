/**
 * The requester hears of their report through the bell: "Report ready" (Info) when it can be
 * downloaded, "Report failed" (Error) with the reason otherwise, both opening the file. Both are of the
 * kind ReportReady, so one preference (Settings → User) says whether a user wants them.
 */
import type { Deps } from '../../context';
import { notify } from '../notifications/notify';
import { reportNoticeText, type ReportNotice } from './service';

export function reportNotice(deps: Deps): ReportNotice {
  return async ({ accountId, userId, fileId, name, outcome }) => {
    await notify(deps, {
      accountId,
      userIds: [userId],
      kind: 'ReportReady',
      ...reportNoticeText(name, outcome),
      target: { type: 'File', id: fileId },
    });
  };
}
