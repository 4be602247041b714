import { Radio, Group, Select, Stack, Textarea } from '@mantine/core';
import type { CredentialKind } from '#shared/servers.ts';
import { PasswordField } from '#client/components/password-field.tsx';
import type { SecretFormValues } from '../credential-form-values.ts';

/** The part of a Mantine form these fields use. */
interface SecretForm {
  values: SecretFormValues;
  getInputProps: (path: keyof SecretFormValues) => object;
}

/**
 * The secret of a new or rotated credential: for an SSH key, generate one (Ed25519 unless
 * RSA is asked for) or paste one with its passphrase; for a password or token, the value.
 */
export function SecretFields({ kind, form }: { kind: CredentialKind; form: SecretForm }) {
  if (kind !== 'ssh-key') {
    return (
      <PasswordField
        // Not "Password": the kind's choice already answers to that name.
        label="Secret"
        description={kind === 'password' ? 'The password.' : 'The token.'}
        autoComplete="new-password"
        {...form.getInputProps('secret')}
      />
    );
  }
  const values = form.values;
  return (
    <Stack gap="md">
      <Radio.Group label="Key" {...form.getInputProps('keySource')}>
        <Group gap="lg" mt={6}>
          <Radio value="generate" label="Generate a new key" />
          <Radio value="paste" label="Paste a private key" />
        </Group>
      </Radio.Group>
      {values.keySource === 'generate' ? (
        <Select
          label="Key type"
          data={[
            { value: 'ed25519', label: 'Ed25519 (recommended)' },
            { value: 'rsa', label: 'RSA 4096' },
          ]}
          allowDeselect={false}
          {...form.getInputProps('keyType')}
        />
      ) : (
        <>
          <Textarea
            label="Private key"
            description="OpenSSH or PEM, from -----BEGIN to -----END."
            autosize
            minRows={4}
            maxRows={12}
            spellCheck={false}
            autoComplete="off"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            {...form.getInputProps('privateKey')}
          />
          <PasswordField
            label="Passphrase"
            description="Only if the key has one."
            autoComplete="off"
            {...form.getInputProps('passphrase')}
          />
        </>
      )}
    </Stack>
  );
}
