import { useMemo, useState } from 'react';
import { draftFromConfiguration, maskedPaths, mergeUnshown, sameDraft, withKeepHints } from './configuration-draft';
import {
  initialDraft,
  readFields,
  toConfiguration,
  validateDraft,
  type Draft,
  type SettingsField,
} from './settings-schema';

export interface SettingsForm {
  /** The fields to render (secrets kept from a saved configuration carry a hint saying so). */
  fields: SettingsField[];
  draft: Draft;
  /** Merges values into the draft: editing one group of fields keeps the other groups' values. */
  update: (next: Draft) => void;
  /** Every problem by field path; empty when the configuration can be submitted. */
  problems: Record<string, string>;
  /** The problems of the fields the user has left (or all of them, after a submit attempt). */
  shownProblems: Record<string, string>;
  touch: (path: string) => void;
  /** Shows every problem at once, e.g. when a submit is refused. */
  revealProblems: () => void;
  /** Whether the draft differs from where it started. */
  changed: boolean;
  /** The configuration a valid draft submits. */
  configuration: () => Draft;
}

/**
 * The dynamic-field form state shared by the create page and the settings dialog: a definition's
 * `settings` schema read into fields, the draft (from the schema's defaults, or from a saved
 * configuration), its checks, and the configuration it submits.
 */
export function useSettingsForm(settings: unknown, saved?: Draft): SettingsForm {
  const schemaFields = useMemo(() => readFields(settings), [settings]);
  // The starting point is fixed for the form's life: a refetch must not overwrite what is typed.
  const [start] = useState(() => (saved ? draftFromConfiguration(schemaFields, saved) : initialDraft(schemaFields)));
  const [draft, setDraft] = useState<Draft>(start);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set<string>());
  const [revealed, setRevealed] = useState(false);
  const savedSecrets = useMemo(
    () => (saved ? maskedPaths(schemaFields, start) : new Set<string>()),
    [saved, schemaFields, start],
  );
  const fields = useMemo(() => withKeepHints(schemaFields, savedSecrets), [schemaFields, savedSecrets]);

  const problems = useMemo(() => {
    const all = validateDraft(schemaFields, draft);
    // A saved secret still showing its mask is kept by the server: not blank, not badly formatted.
    const stillMasked = maskedPaths(schemaFields, draft);
    return Object.fromEntries(
      Object.entries(all).filter(([path]) => !(savedSecrets.has(path) && stillMasked.has(path))),
    );
  }, [schemaFields, draft, savedSecrets]);
  const shownProblems = revealed
    ? problems
    : Object.fromEntries(Object.entries(problems).filter(([path]) => touched.has(path)));

  return {
    fields,
    draft,
    update: (next) => setDraft((d) => ({ ...d, ...next })),
    problems,
    shownProblems,
    touch: (path) => setTouched((t) => (t.has(path) ? t : new Set(t).add(path))),
    revealProblems: () => setRevealed(true),
    changed: !sameDraft(start, draft),
    configuration: () => {
      const next = toConfiguration(schemaFields, draft);
      return saved ? mergeUnshown(schemaFields, saved, next) : next;
    },
  };
}
