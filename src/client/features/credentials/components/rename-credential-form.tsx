import { useId, useRef, useState } from 'react';
import { useIsMounted } from '#client/lib/is-mounted.ts';
import { Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { Credential } from '#shared/credentials.ts';
import { errorMessage, isApiError } from '#client/lib/api-client.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { useSavedVersion } from '#client/lib/saved-version.ts';
import { LoadSavedVersion } from '#client/components/load-saved-version.tsx';
import { useRenameCredential } from '../api/credential-mutations.ts';
import { credentialQuery } from '../api/credential-queries.ts';
import { FormActions } from '#client/components/form-actions.tsx';
import { focusFirstError, showFieldRefusal } from '#client/lib/form-errors.ts';

/**
 * A new name for a credential, at the version it was opened or loaded since (a stale one is a
 * 409).
 */
export function RenameCredentialForm({
  credential,
  onSaved,
  onCancel,
}: {
  credential: Credential;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const rename = useRenameCredential();
  const [problem, setProblem] = useState<string | null>(null);
  const formId = useId();
  const isMounted = useIsMounted();
  const form = useForm({
    initialValues: { name: credential.name },
    validate: { name: (name) => (name.trim() === '' ? 'Enter a name' : null) },
  });
  const nameRef = useRef<HTMLInputElement>(null);
  const saved = useSavedVersion(credential, form, {
    toValues: ({ name }) => ({ name }),
    query: credentialQuery,
    setProblem,
    focus: () => nameRef.current?.focus(),
  });

  const submit = form.onSubmit(
    async ({ name }) => {
      setProblem(null);
      try {
        await saved.save((base = credential) =>
          rename.mutateAsync({ id: credential.id, name, version: base.version }),
        );
        notifications.show({ color: 'green', message: 'Credential renamed.' });
        if (isMounted()) onSaved();
      } catch (error) {
        const field = isApiError(error, 400) ? error.fields.name : undefined;
        if (field) showFieldRefusal(form, formId, 'name', field);
        else setProblem(errorMessage(error));
      }
    },
    () => focusFirstError(formId),
  );

  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormErrorAlert title="The credential was not renamed" message={problem}>
          <LoadSavedVersion of={saved} />
        </FormErrorAlert>
        <TextInput
          label="Name"
          autoComplete="off"
          data-autofocus
          ref={nameRef}
          {...form.getInputProps('name')}
        />
        <FormActions onCancel={onCancel} saving={form.submitting} />
      </Stack>
    </form>
  );
}
