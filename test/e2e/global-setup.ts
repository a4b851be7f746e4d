import { ensureClientBuild } from '../../src/server/client-build';

/** Browser tests run against the built client, as `npm start` serves it. */
export default async function setup(): Promise<void> {
  await ensureClientBuild();
}
