import { Select, TagsInput } from '@mantine/core';
import type { useForm } from '@mantine/form';
import { parseTags } from '#shared/tags.ts';
import { placeFieldErrors, type PlacedErrors } from '#client/lib/form-errors.ts';
import { ROLE_OPTIONS } from '../people-text.ts';

/** What a form's getInputProps gives a field. */
type InputProps = ReturnType<ReturnType<typeof useForm>['getInputProps']>;

/**
 * A person's role and the tags they are limited to, as the invitation and the change ask. An
 * administrator has no limit (ADMIN_TAGS_MESSAGE says why): the tags are shown empty and
 * disabled while the role is admin, and come back if another role is chosen.
 */
export function AccessFields({
  role,
  tags,
  onTagsChange,
  roleDescription,
  tagsDescription,
}: {
  role: InputProps;
  tags: InputProps;
  onTagsChange: (tags: string[]) => void;
  roleDescription?: string;
  tagsDescription: string;
}) {
  const admin = role.value === 'admin';
  return (
    <>
      <Select
        label="Role"
        description={roleDescription}
        data={ROLE_OPTIONS}
        allowDeselect={false}
        {...role}
      />
      <TagsInput
        label="Limit to tags"
        description={admin ? 'Administrators see every client.' : tagsDescription}
        {...tags}
        {...(admin ? { value: [], disabled: true } : {})}
        onChange={(value) => onTagsChange(parseTags(value))}
      />
    </>
  );
}

/**
 * The server's field errors on a person's fields: one about a single tag (`tags.1`) goes on the
 * tags field, `email` on the invitation's address; anything else is said above the form.
 */
export function placeAccessErrors(fields: Record<string, string>): PlacedErrors {
  return placeFieldErrors(fields, (path) => {
    if (path === 'tags' || path.startsWith('tags.')) return 'tags';
    return path === 'role' || path === 'email' ? path : undefined;
  });
}
