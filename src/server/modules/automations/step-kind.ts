/**
 * What a step kind is to the rest of automations: its catalogue entry (inputs, outputs, which
 * integrations it uses), the allowed values of its inputs, validation, a preview without side
 * effects, and its run. One file per kind under steps/, listed in step-kinds.ts.
 */
import type {
  AutomationLogLevel,
  InputOption,
  InputValue,
  StepKind,
  StepKindInfo,
  StepPreview,
} from '../../../shared/automations';
import type { AccountContext, Deps } from '../../context';
import type { CoreServices } from '../../services';

/** What a kind may use outside a run (options, preview) as well as inside one. */
export interface StepEnv {
  deps: Deps;
  services: CoreServices;
  /** The account and the user whose rights the step has (the run's run-as user; the caller for previews). */
  ctx: AccountContext;
}

/** A step as configured (inputs may still hold placeholders). */
export interface ConfiguredStep {
  id: string;
  name: string;
  kind: StepKind;
  integrationId: string | null;
  inputs: Record<string, InputValue>;
}

/** A step with its placeholders resolved (a preview leaves the ones it cannot resolve as text and lists them). */
export type ResolvedStep = ConfiguredStep;

export interface StepRunEnv extends StepEnv {
  run: { id: string; number: number; definitionId: string; name: string; startedAt: string };
  stepId: string;
  /** 1-based; the same attempt continues after a crash (its key is unchanged), a retry is a new one. */
  attempt: number;
  /** `${runId}:${stepId}:${attempt}`: the e-mail's Message-ID, the HTTP Idempotency-Key, file names, upsert keys. */
  idempotencyKey: string;
  /** Aborted on cancellation and timeouts: pass it to fetch, queries (interrupt) and streams. */
  signal: AbortSignal;
  log(level: AutomationLogLevel, message: string): Promise<void>;
  /** Live progress text (run page, stepProgress on the hub); throttled by the runner. */
  progress(text: string): void;
  /**
   * Runs an effect outside the run at most once for `key` (side-effects.ts): recorded Started
   * before and Done (with its result) after. A Done key returns its saved result without running;
   * a Started one (a crash between the two) is not repeated: `uncertain` is true and the step
   * decides (an e-mail is not resent; an HTTP call with an Idempotency-Key may be).
   */
  once<T extends InputValue>(key: string, effect: () => Promise<T>): Promise<OnceResult<T>>;
}

export type OnceResult<T> = { done: true; result: T; repeated: boolean } | { done: false; uncertain: true };

export interface StepKindDefinition extends StepKindInfo {
  /** Allowed values per input (tables, models, datasets, members, formats...), for this step's current inputs. */
  inputOptions(env: StepEnv, step: ConfiguredStep): Promise<Record<string, InputOption[]>>;
  /** What keeps the step from running (a required input missing, a bad value); null when it can. Placeholders are checked by the caller. */
  validate(step: ConfiguredStep): string | null;
  /** What the step would read or send, without side effects. */
  preview(env: StepEnv, step: ResolvedStep): Promise<StepPreview>;
  /**
   * Does the work; the output is small values only (a table or file is named, not carried). An
   * output with `skipped: true` (and a `reason`) records the step as Skipped: it had nothing to do.
   */
  run(env: StepRunEnv, step: ResolvedStep): Promise<Record<string, InputValue>>;
  /** Inputs masked ('********') when resolved inputs are stored or shown. */
  secretInputs?: string[];
}
