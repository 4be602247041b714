import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { openConfirmModal } from '#client/lib/confirm-modal.tsx';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { Credential } from '#shared/credentials.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { RecordHeading, RecordPage } from '#client/components/record-page.tsx';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { EditIcon, TrashIcon } from '#client/components/icons.tsx';
import { Section } from '#client/components/section.tsx';
import { formatDateTime } from '#client/lib/history-text.ts';
import { credentialQuery } from './api/credential-queries.ts';
import { useDeleteCredential } from './api/credential-mutations.ts';
import { FormModal } from '#client/components/form-modal.tsx';
import { RotateCredentialForm } from './components/credential-form.tsx';
import { KindBadge } from './components/credential-list.tsx';
import { PublicKey } from './components/public-key.tsx';
import { RenameCredentialForm } from './components/rename-credential-form.tsx';
import { SecretReveal } from './components/secret-reveal.tsx';
import { useCan } from '#client/lib/use-can.ts';
import { clientLabel } from '#shared/clients.ts';
import { BareList } from '#client/components/bare-list.tsx';

const CREDENTIALS = { to: '/credentials', name: 'credentials' };

export function CredentialPage() {
  const { credentialId = '' } = useParams();
  return (
    <RecordPage
      record={useQuery(credentialQuery(credentialId))}
      noun="credential"
      gone="deleted"
      list={CREDENTIALS}
      blocks={[160]}
    >
      {(credential) => <CredentialDetails credential={credential} />}
    </RecordPage>
  );
}

function byWhom(at: string, by: string | null): string {
  return by ? `${formatDateTime(at)} by ${by}` : formatDateTime(at);
}

function CredentialDetails({ credential }: { credential: Credential }) {
  const navigate = useNavigate();
  const mayWrite = useCan('write');
  const maySeeSecrets = useCan('secret');
  const remove = useDeleteCredential();
  const [renaming, rename] = useDisclosure(false);
  const [rotating, rotate] = useDisclosure(false);
  const [deleteProblem, setDeleteProblem] = useState<string | null>(null);

  function confirmDelete() {
    setDeleteProblem(null);
    openConfirmModal({
      title: 'Delete credential',
      children: (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {`Delete ${credential.name} from the vault? Its secret cannot be recovered.`}
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      // Awaited rather than per-call callbacks: the live feed's echo of the delete can unmount
      // this page before the answer, and the move must happen.
      onConfirm: () =>
        void remove.mutateAsync(credential.id).then(
          () => {
            notifications.show({ color: 'green', message: 'Credential deleted.' });
            void navigate('/credentials');
          },
          (error: unknown) => setDeleteProblem(errorMessage(error)),
        ),
    });
  }

  return (
    <Stack gap="lg" maw={960}>
      <RecordHeading
        list={CREDENTIALS}
        title={credential.name}
        badges={<KindBadge kind={credential.kind} />}
      />

      {mayWrite && (
        <Group gap="sm">
          <Button variant="default" leftSection={<EditIcon size={16} />} onClick={rename.open}>
            Rename
          </Button>
          <Button variant="default" onClick={rotate.open}>
            Rotate
          </Button>
          <Button
            variant="default"
            color="red"
            leftSection={<TrashIcon size={16} />}
            loading={remove.isPending}
            onClick={confirmDelete}
          >
            Delete
          </Button>
        </Group>
      )}
      <FormErrorAlert title="The credential was not deleted" message={deleteProblem} />

      <Paper withBorder radius="md" p="lg">
        <Stack gap="lg">
          {credential.publicKey && (
            <Section title="Public key">
              <PublicKey publicKey={credential.publicKey} fingerprint={credential.fingerprint} />
            </Section>
          )}
          {maySeeSecrets && (
            <Section title="Secret">
              <SecretReveal credential={credential} />
            </Section>
          )}
          <Section title="Used by">
            {credential.servers.length === 0 ? (
              <Text size="sm" c="dimmed">
                No server uses it.
              </Text>
            ) : (
              <BareList gap={4}>
                {credential.servers.map((server) => (
                  <li key={server.id}>
                    <Anchor
                      component={Link}
                      to={`/servers/${encodeURIComponent(server.id)}`}
                      size="sm"
                    >
                      {`${server.label} of ${clientLabel(server.client)}`}
                    </Anchor>
                  </li>
                ))}
              </BareList>
            )}
          </Section>
          <Section title="Record">
            <Line label="Created">{byWhom(credential.createdAt, credential.createdBy)}</Line>
            <Line label="Last changed">{byWhom(credential.updatedAt, credential.updatedBy)}</Line>
            <Line label="Last revealed">
              {credential.revealedAt
                ? byWhom(credential.revealedAt, credential.revealedBy)
                : 'Never'}
            </Line>
            {credential.kind === 'ssh-key' && (
              <Line label="Passphrase">{credential.hasPassphrase ? 'Yes' : 'No'}</Line>
            )}
          </Section>
        </Stack>
      </Paper>

      <FormModal opened={renaming} onClose={rename.close} title="Rename credential">
        <RenameCredentialForm
          credential={credential}
          onCancel={rename.close}
          onSaved={rename.close}
        />
      </FormModal>
      <FormModal opened={rotating} onClose={rotate.close} title="Rotate the secret">
        <RotateCredentialForm
          credential={credential}
          onCancel={rotate.close}
          onSaved={rotate.close}
        />
      </FormModal>
    </Stack>
  );
}

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span c="dimmed" size="sm">
        {`${label}: `}
      </Text>
      {children}
    </Text>
  );
}
