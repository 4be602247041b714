import { useNavigate } from 'react-router';
import { Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { PlusIcon } from '#client/components/icons.tsx';
import { credentialsQuery } from '#client/lib/credential-list-query.ts';
import { useCan } from '#client/lib/use-can.ts';
import { FormModal } from '#client/components/form-modal.tsx';
import { NewCredentialForm } from './components/credential-form.tsx';
import { CredentialList, credentialPath } from './components/credential-list.tsx';

/** The Credentials section: the vault's SSH keys, passwords and tokens, never their secrets. */
export function CredentialsPage() {
  const credentials = useQuery(credentialsQuery());
  const [adding, { open, close }] = useDisclosure(false);
  const navigate = useNavigate();
  const mayWrite = useCan('write');

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          Credentials
        </Title>
        {mayWrite && (
          <Button leftSection={<PlusIcon size={16} />} onClick={open}>
            New credential
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed" maw={720}>
        SSH keys, passwords and tokens that servers sign in with. Secrets are stored encrypted and
        leave the vault only when someone reveals or copies one, which is recorded.
      </Text>
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        {credentials.isPending ? (
          <Stack gap="xs" role="status" aria-label="Loading credentials">
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Stack>
        ) : credentials.isError ? (
          <ErrorAlert
            title="Could not load the credentials"
            error={credentials.error}
            onRetry={() => void credentials.refetch()}
          />
        ) : credentials.data.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            No credentials yet.
          </Text>
        ) : (
          <CredentialList credentials={credentials.data} />
        )}
      </Paper>
      <FormModal opened={adding} onClose={close} title="New credential">
        <NewCredentialForm
          onCancel={close}
          onSaved={(credential) => {
            close();
            // Its page shows a new key's public key, ready to copy into authorized_keys.
            void navigate(credentialPath(credential.id));
          }}
        />
      </FormModal>
    </Stack>
  );
}
