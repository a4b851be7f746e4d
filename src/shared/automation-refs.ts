/**
 * What names an automation's parts in a path or a call: one schema per ref, used alike by the REST
 * paths' params and the tRPC inputs (which extend them with their bodies).
 */
import { z } from 'zod';
import { idSchema } from './accounts';

/** A definition: /api/automations/definitions/{id}, .../trigger. */
export const definitionRefSchema = z.object({ id: idSchema });
/** One of its steps: .../steps/{stepId}. */
export const stepRefSchema = definitionRefSchema.extend({ stepId: idSchema });
/** One input of a step: .../steps/{stepId}/input/{input}. */
export const stepInputRefSchema = stepRefSchema.extend({ input: z.string().min(1).max(100) });
/** A run: /api/automations/{runId}, .../{runId}/rerun, /logs, /cancel (one name per path segment). */
export const runRefSchema = z.object({ runId: idSchema });
