import { describe, expect, it } from 'vitest';
import { appWithTeam } from '../static-tables/helpers';
import { addColumn, joinedModel, makeShop } from '../models/helpers';
import { configured, definitionAndRun, failureOf, kindOf, runEnv } from './steps-data-env';

const publish = kindOf('PublishModel');

describe('Publish model step', () => {
  it('publishes the draft, says when there is nothing to publish, makes an earlier version active, and refuses read_only members', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const model = await joinedModel(t, cookie, await makeShop(t, cookie));
    const run = await definitionAndRun(t, team.accountId, team.owner.userId);
    const { env, logs } = await runEnv(t, team.accountId, team.owner.userId, run);

    const options = await publish.inputOptions(env, configured('PublishModel', { model: model.id }));
    expect(options.model).toEqual([{ value: model.id, label: 'Sales' }]);
    expect(options.action?.map((o) => o.value)).toEqual(['PublishDraft', 'SetActiveVersion']);
    expect(options.version).toEqual([]);
    expect(publish.validate(configured('PublishModel', { action: 'PublishDraft' }))).toBe('Model is required.');
    expect(publish.validate(configured('PublishModel', { model: model.id, action: 'SetActiveVersion' }))).toBe(
      'Version is required to make a version active.',
    );

    const step = configured('PublishModel', { model: model.id, action: 'PublishDraft' });
    expect((await publish.preview(env, step)).summary).toBe('Would publish the draft of Sales.');
    const first = await publish.run(env, step);
    expect(first).toMatchObject({ modelId: model.id, versionNumber: 1, published: true });
    const v1 = first.versionId as string;
    expect((await t.services.models.list(env.ctx))[0]).toMatchObject({ status: 'Active', activeVersionId: v1 });

    // Nothing to publish: not an error, the output says so.
    expect(await publish.run(env, step)).toEqual({
      modelId: model.id,
      versionId: v1,
      versionNumber: 1,
      published: false,
    });
    expect(logs.at(-1)?.message).toBe('Sales has no unpublished changes: nothing to publish.');

    // A second version, then back to the first.
    await addColumn(t, cookie, model.id, {
      displayName: 'Tripled',
      function: `[${model.columns.find((c) => c.displayName === 'Amount')?.columnKey}] * 3`,
    });
    const second = await publish.run(env, step);
    expect(second).toMatchObject({ versionNumber: 2, published: true });
    const back = configured('PublishModel', { model: model.id, action: 'SetActiveVersion', version: v1 });
    expect((await publish.inputOptions(env, back)).version?.map((o) => o.label)).toEqual(
      expect.arrayContaining(['Version 1', 'Version 2 (active)']),
    );
    expect((await publish.preview(env, back)).summary).toBe('Would make version 1 of Sales active.');
    expect(await publish.run(env, back)).toEqual({
      modelId: model.id,
      versionId: v1,
      versionNumber: 1,
      published: true,
    });
    expect((await t.services.models.list(env.ctx))[0]?.activeVersionId).toBe(v1);

    // A version of no model of this account.
    const wrong = await failureOf(
      publish.run(env, configured('PublishModel', { model: model.id, action: 'SetActiveVersion', version: 'nope' })),
    );
    expect(wrong).toEqual({ type: 'ConfigError', message: 'Sales has no such published version.' });

    // Run as a read_only member: the models service refuses the write (never retried).
    const reader = await runEnv(t, team.accountId, team.readOnly.userId, run, 'step-2');
    await addColumn(t, cookie, model.id, { displayName: 'Again', function: '1' });
    const refused = await failureOf(publish.run(reader.env, step));
    expect(refused.type).toBe('ConfigError');
  });
});
