/**
 * Automation definitions and their steps (spec data-areas: Automations; §7's definition calls).
 * Every read and write is scoped to the caller's account (other accounts' ids are not found);
 * writes need a writer. A definition's error and each step's are computed on every read
 * (validation.ts), so what the page shows is what the runner will refuse.
 *
 * One object for the adapters, composed from its parts: definitions-service.ts (the definitions),
 * steps-service.ts (their steps) and step-options-service.ts (input options and previews), which
 * share definition-access.ts.
 */
import type { Deps } from '../../context';
import type { CoreServices } from '../../services';
import { createDefinitionAccess } from './definition-access';
import { createDefinitionsService } from './definitions-service';
import { createStepOptionsService } from './step-options-service';
import { createStepsService } from './steps-service';

export function createAutomationsService(deps: Deps, core: CoreServices) {
  const access = createDefinitionAccess(deps);
  return {
    ...createDefinitionsService(deps, access),
    ...createStepsService(deps, access),
    ...createStepOptionsService(deps, core, access),
  };
}

export type AutomationsService = ReturnType<typeof createAutomationsService>;
