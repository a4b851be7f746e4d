import { TextInput, Textarea } from '@mantine/core';

/**
 * An automation's Name (required, up to 200 characters) and description (up to 2,000), as the
 * create and settings dialogs ask for them; the dialog trims both when it sends them.
 */
export function NameFields({
  name,
  description,
  onNameChange,
  onDescriptionChange,
  descriptionLabel,
  flagEmptyName = false,
}: {
  name: string;
  description: string;
  onNameChange: (name: string) => void;
  onDescriptionChange: (description: string) => void;
  descriptionLabel: string;
  /** Says 'Name is required.' under an empty name (settings: the name was there before). */
  flagEmptyName?: boolean;
}) {
  return (
    <>
      <TextInput
        label="Name"
        required
        maxLength={200}
        value={name}
        error={flagEmptyName && name.trim() === '' ? 'Name is required.' : undefined}
        onChange={(e) => onNameChange(e.currentTarget.value)}
      />
      <Textarea
        label={descriptionLabel}
        autosize
        minRows={2}
        maxLength={2_000}
        value={description}
        onChange={(e) => onDescriptionChange(e.currentTarget.value)}
      />
    </>
  );
}
