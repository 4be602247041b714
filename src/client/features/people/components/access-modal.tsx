import { useId, useState } from 'react';
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { roleSchema, type Role } from '#shared/people.ts';
import type { Person } from '#shared/people-admin.ts';
import { focusFirstError, showFormFailure } from '#client/lib/form-errors.ts';
import { useUpdatePerson } from '../api/people-mutations.ts';
import { AccessFields, placeAccessErrors } from './access-fields.tsx';
import { tagLimit } from '../people-text.ts';

/** Changes a person's role and the tags they are limited to (none: every client). */
export function AccessModal({ person, onClose }: { person: Person | null; onClose: () => void }) {
  return (
    <Modal
      opened={person !== null}
      onClose={onClose}
      title={person ? `Role and tags of ${person.email}` : ''}
    >
      {person && <AccessForm key={person.id} person={person} onClose={onClose} />}
    </Modal>
  );
}

function AccessForm({ person, onClose }: { person: Person; onClose: () => void }) {
  const update = useUpdatePerson();
  const formId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({
    initialValues: { role: person.role as Role, tags: person.tags ?? [] },
  });

  const submit = form.onSubmit(
    async ({ role, tags }) => {
      setProblem(null);
      try {
        // Only what was changed here: a change another administrator saved while this dialog
        // was open (a narrower tag limit, say) stays unless this one changes that too.
        await update.mutateAsync({
          id: person.id,
          patch: {
            ...(form.isDirty('role') ? { role: roleSchema.parse(role) } : {}),
            ...(form.isDirty('tags') ? { tags: tagLimit(role, tags) } : {}),
          },
        });
        notifications.show({
          color: 'green',
          message: `Saved the role and tags of ${person.email}`,
        });
        onClose();
      } catch (error) {
        // A bad tag, the last administrator's role (409): said next to the field.
        showFormFailure(error, { formId, form, setProblem, place: placeAccessErrors });
      }
    },
    () => focusFirstError(formId),
  );

  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Stack gap="md">
        {problem && (
          <Alert color="red" title="Not saved" role="alert">
            {problem}
          </Alert>
        )}
        <AccessFields
          role={form.getInputProps('role')}
          roleDescription="Viewers read but never see a secret; editors change clients; administrators also manage people."
          tags={form.getInputProps('tags')}
          tagsDescription="They see only clients with at least one of these tags. Empty: every client."
          onTagsChange={(tags) => form.setFieldValue('tags', tags)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
