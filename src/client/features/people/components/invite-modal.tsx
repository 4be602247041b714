import { useId, useState } from 'react';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { roleSchema, type Role } from '#shared/people.ts';
import { INVITATION_DAYS } from '#shared/people-admin.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { showFormFailure } from '#client/lib/form-errors.ts';
import { useInvite } from '../api/people-mutations.ts';
import { AccessFields, placeAccessErrors } from './access-fields.tsx';
import { tagLimit } from '../people-text.ts';

/** Invites someone by email with a role and tags; they get a sign-up link by mail. */
export function InviteModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Invite someone">
      {opened && <InviteForm onClose={onClose} />}
    </Modal>
  );
}

function InviteForm({ onClose }: { onClose: () => void }) {
  const invite = useInvite();
  const formId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email: '', role: 'editor' as Role, tags: [] as string[] },
  });

  const submit = form.onSubmit(async ({ email, role, tags }) => {
    setProblem(null);
    try {
      const sent = await invite.mutateAsync({
        email,
        role: roleSchema.parse(role),
        tags: tagLimit(role, tags),
      });
      notifications.show({ color: 'green', message: `Invitation sent to ${sent.email}` });
      onClose();
    } catch (error) {
      // A bad field, or an address that has an account (409): said next to the field.
      showFormFailure(error, { formId, form, setProblem, place: placeAccessErrors });
    }
  });

  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormErrorAlert title="Not sent" message={problem} />
        <TextInput
          label="Email"
          type="email"
          required
          data-autofocus
          description={`They get a link to create their account, valid for ${INVITATION_DAYS} days.`}
          {...form.getInputProps('email')}
        />
        <AccessFields
          role={form.getInputProps('role')}
          tags={form.getInputProps('tags')}
          tagsDescription="Empty: every client."
          onTagsChange={(tags) => form.setFieldValue('tags', tags)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={invite.isPending}>
            Send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
