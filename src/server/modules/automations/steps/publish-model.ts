/**
 * Publish model: its draft becomes the active version, or an earlier published version is made
 * active again, through the models service (as the run's user: read_only members are refused there).
 * A draft-less model is no failure: there was nothing to publish, and the output says so.
 */
import { STEP_KIND_LABELS, type InputValue, type StepPreview } from '../../../../shared/automations';
import { AppError } from '../../../errors';
import { configError } from '../step-errors';
import type { StepEnv, StepKindDefinition } from '../step-kind';
import { firstProblem, problemOf } from './data-inputs';
import { textInput } from './step-inputs';

const ACTIONS = ['PublishDraft', 'SetActiveVersion'] as const;
type Action = (typeof ACTIONS)[number];
const ACTION_LABELS: Record<Action, string> = {
  PublishDraft: 'Publish the draft',
  SetActiveVersion: 'Make a version active',
};

const actionOf = (inputs: Record<string, InputValue>): Action =>
  textInput(inputs, 'action') === 'SetActiveVersion' ? 'SetActiveVersion' : 'PublishDraft';

async function findModel(env: StepEnv, modelId: string) {
  const model = (await env.services.models.list(env.ctx)).find((m) => m.id === modelId);
  if (!model) throw configError('The chosen model no longer exists.');
  return model;
}

/** The model's published versions (a draft cannot be made active). */
async function publishedVersions(env: StepEnv, modelId: string) {
  try {
    return (await env.services.models.versions(env.ctx, modelId)).filter((v) => v.status !== 'Draft');
  } catch (error) {
    if (error instanceof AppError && error.kind === 'NotFound') throw configError('The chosen model no longer exists.');
    throw error;
  }
}

/** The model's active version after the change (the model as the service answers it may show its draft). */
async function activeVersion(env: StepEnv, modelId: string): Promise<{ versionId: string; versionNumber: number }> {
  const active = (await publishedVersions(env, modelId)).find((v) => v.status === 'Active');
  if (!active) throw new Error('The model has no active version after publishing');
  return { versionId: active.versionId, versionNumber: active.versionNumber };
}

export const publishModelStep: StepKindDefinition = {
  kind: 'PublishModel',
  label: STEP_KIND_LABELS.PublishModel,
  description: 'Publishes a model’s draft, or makes one of its published versions active.',
  integrationConnectors: null,
  inputs: [
    { name: 'model', label: 'Model', type: 'select', required: true },
    { name: 'action', label: 'Action', type: 'select', required: true, default: 'PublishDraft' },
    {
      name: 'version',
      label: 'Version',
      type: 'select',
      required: false,
      showWhen: { input: 'action', equals: ['SetActiveVersion'] },
    },
  ],
  outputs: [
    { name: 'modelId', label: 'Model id' },
    { name: 'versionId', label: 'Active version id' },
    { name: 'versionNumber', label: 'Active version number' },
    { name: 'published', label: 'Whether a version was published or made active' },
  ],
  sideEffects: false,

  async inputOptions(env, step) {
    const models = await env.services.models.list(env.ctx);
    const modelId = textInput(step.inputs, 'model');
    const versions =
      modelId && models.some((m) => m.id === modelId) ? await publishedVersions(env, modelId).catch(() => []) : [];
    return {
      model: models.map((m) => ({ value: m.id, label: m.name })),
      action: ACTIONS.map((a) => ({ value: a, label: ACTION_LABELS[a] })),
      version: versions.map((v) => ({
        value: v.versionId,
        label: `Version ${v.versionNumber}${v.status === 'Active' ? ' (active)' : ''}`,
      })),
    };
  },

  validate(step) {
    const unreadable = firstProblem(
      (['model', 'action', 'version'] as const).map((name) => [
        problemOf(() => textInput(step.inputs, name)) !== null,
        `${name}: choose a value.`,
      ]),
    );
    if (unreadable) return unreadable;
    const action = textInput(step.inputs, 'action');
    return firstProblem([
      [textInput(step.inputs, 'model') === '', 'Model is required.'],
      [action !== '' && !ACTIONS.includes(action as Action), 'Action is Publish the draft or Make a version active.'],
      [
        actionOf(step.inputs) === 'SetActiveVersion' && textInput(step.inputs, 'version') === '',
        'Version is required to make a version active.',
      ],
    ]);
  },

  async preview(env, step): Promise<StepPreview> {
    const model = await findModel(env, textInput(step.inputs, 'model'));
    if (actionOf(step.inputs) === 'PublishDraft') {
      return {
        summary: model.hasUnpublishedChanges
          ? `Would publish the draft of ${model.name}.`
          : `${model.name} has no unpublished changes: nothing to publish.`,
        details: { model: model.name, activeVersionNumber: model.status === 'Active' ? model.versionNumber : null },
      };
    }
    const versionId = textInput(step.inputs, 'version');
    const version = (await publishedVersions(env, model.id)).find((v) => v.versionId === versionId);
    if (!version) throw configError(`${model.name} has no such published version.`);
    return {
      summary:
        version.status === 'Active'
          ? `Version ${version.versionNumber} of ${model.name} is already active.`
          : `Would make version ${version.versionNumber} of ${model.name} active.`,
      details: { model: model.name, versionNumber: version.versionNumber },
    };
  },

  async run(env, step) {
    env.signal.throwIfAborted();
    const model = await findModel(env, textInput(step.inputs, 'model'));
    if (actionOf(step.inputs) === 'PublishDraft') {
      if (!model.hasUnpublishedChanges) {
        await env.log('INFO', `${model.name} has no unpublished changes: nothing to publish.`);
        return {
          modelId: model.id,
          versionId: model.activeVersionId,
          versionNumber: model.status === 'Active' ? model.versionNumber : null,
          published: false,
        };
      }
      env.progress(`Publishing ${model.name}`);
      await env.services.models.publish(env.ctx, model.id);
      const published = await activeVersion(env, model.id);
      await env.log('INFO', `Published version ${published.versionNumber} of ${model.name}.`);
      return { modelId: model.id, ...published, published: true };
    }
    const versionId = textInput(step.inputs, 'version');
    const version = (await publishedVersions(env, model.id)).find((v) => v.versionId === versionId);
    if (!version) throw configError(`${model.name} has no such published version.`);
    if (version.status === 'Active') {
      await env.log('INFO', `Version ${version.versionNumber} of ${model.name} is already active.`);
      return { modelId: model.id, versionId, versionNumber: version.versionNumber, published: false };
    }
    env.progress(`Making version ${version.versionNumber} of ${model.name} active`);
    await env.services.models.setActive(env.ctx, versionId);
    const active = await activeVersion(env, model.id);
    await env.log('INFO', `Version ${active.versionNumber} of ${model.name} is active.`);
    return { modelId: model.id, ...active, published: true };
  },
};
