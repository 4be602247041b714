import { useEffect, useId, useRef, useState } from 'react';
import { useIsMounted } from '#client/lib/is-mounted.ts';
import { Input, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { Credential } from '#shared/credentials.ts';
import { CREDENTIAL_KINDS, type CredentialKind } from '#shared/servers.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { useSavedVersion } from '#client/lib/saved-version.ts';
import { LoadSavedVersion } from '#client/components/load-saved-version.tsx';
import { useCreateCredential, useRotateCredential } from '../api/credential-mutations.ts';
import { credentialQuery } from '../api/credential-queries.ts';
import {
  KIND_LABELS,
  emptySecretValues,
  secretInput,
  toFormErrors,
  validateSecret,
  type CredentialFormValues,
} from '../credential-form-values.ts';
import { SecretFields } from './secret-fields.tsx';
import { FormActions } from '#client/components/form-actions.tsx';
import { focusFirstError, showFormFailure } from '#client/lib/form-errors.ts';

/** A new credential in the vault: its name, its kind, and its secret. */
export function NewCredentialForm({
  onSaved,
  onCancel,
}: {
  onSaved: (credential: Credential) => void;
  onCancel: () => void;
}) {
  const create = useCreateCredential();
  const formId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const isMounted = useIsMounted();
  const form = useForm<CredentialFormValues>({
    initialValues: { name: '', kind: 'ssh-key', ...emptySecretValues },
    validate: (values) => ({
      ...(values.name.trim() === '' ? { name: 'Enter a name' } : {}),
      ...validateSecret(values.kind, values),
    }),
  });
  const nameRef = useRef<HTMLInputElement>(null);
  useEffect(() => nameRef.current?.focus(), []);

  const submit = form.onSubmit(
    async (values) => {
      setProblem(null);
      try {
        const saved = await create.mutateAsync({
          name: values.name,
          kind: values.kind,
          ...secretInput(values.kind, values),
        });
        notifications.show({ color: 'green', message: 'Credential saved.' });
        if (isMounted()) onSaved(saved);
      } catch (error) {
        showFormFailure(error, { formId, form, setProblem, place: toFormErrors });
      }
    },
    () => focusFirstError(formId),
  );

  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormErrorAlert
          title="The credential was not saved"
          message={problem}
          style={{ whiteSpace: 'pre-line' }}
        />
        <TextInput label="Name" ref={nameRef} autoComplete="off" {...form.getInputProps('name')} />
        <Stack gap={4}>
          <Input.Label id={`${formId}-kind`}>Kind</Input.Label>
          <SegmentedControl
            aria-labelledby={`${formId}-kind`}
            data={CREDENTIAL_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] }))}
            value={form.values.kind}
            onChange={(kind) => {
              form.setFieldValue('kind', kind as CredentialKind);
              form.clearErrors();
            }}
          />
        </Stack>
        <SecretFields kind={form.values.kind} form={form} />
        <FormActions onCancel={onCancel} saving={form.submitting} />
      </Stack>
    </form>
  );
}

/**
 * Replaces a credential's secret, at the version it was opened or loaded since (a stale one is a
 * 409).
 */
export function RotateCredentialForm({
  credential,
  onSaved,
  onCancel,
}: {
  credential: Credential;
  onSaved: (credential: Credential) => void;
  onCancel: () => void;
}) {
  const rotate = useRotateCredential();
  const formId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const isMounted = useIsMounted();
  const form = useForm<CredentialFormValues>({
    initialValues: { name: credential.name, kind: credential.kind, ...emptySecretValues },
    validate: (values) => validateSecret(credential.kind, values),
  });
  // The new secret typed stays when their version is loaded: theirs is never shown to compare.
  const saved = useSavedVersion(credential, form, {
    query: credentialQuery,
    setProblem,
    focus: () =>
      document.getElementById(formId)?.querySelector<HTMLElement>('button[type="submit"]')?.focus(),
  });

  const submit = form.onSubmit(
    async (values) => {
      setProblem(null);
      try {
        const stored = await saved.save((base = credential) =>
          rotate.mutateAsync({
            id: credential.id,
            input: { version: base.version, ...secretInput(credential.kind, values) },
          }),
        );
        notifications.show({ color: 'green', message: 'Secret replaced.' });
        if (isMounted()) onSaved(stored);
      } catch (error) {
        showFormFailure(error, { formId, form, setProblem, place: toFormErrors });
      }
    },
    () => focusFirstError(formId),
  );

  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          The new secret replaces the current one for every server that uses this credential.
        </Text>
        <FormErrorAlert
          title="The secret was not replaced"
          message={problem}
          style={{ whiteSpace: 'pre-line' }}
        >
          <LoadSavedVersion of={saved} keepsTyped />
        </FormErrorAlert>
        <SecretFields kind={credential.kind} form={form} />
        <FormActions onCancel={onCancel} saving={form.submitting} submit="Rotate" />
      </Stack>
    </form>
  );
}
