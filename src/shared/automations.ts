/**
 * Automations (spec data-areas: Automations screens, the Automation definition and run entities,
 * section 7's calls, the /api/hubs/automations hub). A definition has a trigger and ordered steps;
 * a run executes a snapshot of the definition, step by step, each step's output saved before the
 * next starts so a restart resumes at the first step without one.
 */

export * from './automation-kinds';
export * from './automation-values';
export * from './automation-entities';
export * from './automation-hub';
export * from './automation-requests';
export * from './automation-messages';
