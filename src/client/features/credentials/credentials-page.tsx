import { useNavigate } from 'react-router';
import { Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { credentialsQuery } from '#client/lib/credential-list-query.ts';
import { useCan } from '#client/lib/use-can.ts';
import { FormModal } from '#client/components/form-modal.tsx';
import { NewCredentialForm } from './components/credential-form.tsx';
import { CredentialList, credentialPath } from './components/credential-list.tsx';
import { SectionHeading, SectionList } from '#client/components/section-page.tsx';

/** The Credentials section: the vault's SSH keys, passwords and tokens, never their secrets. */
export function CredentialsPage() {
  const credentials = useQuery(credentialsQuery());
  const [adding, { open, close }] = useDisclosure(false);
  const navigate = useNavigate();
  const mayWrite = useCan('write');

  return (
    <Stack gap="lg">
      <SectionHeading
        title="Credentials"
        add={mayWrite && { label: 'New credential', onClick: open }}
      />
      <Text size="sm" c="dimmed" maw={720}>
        SSH keys, passwords and tokens that servers sign in with. Secrets are stored encrypted and
        leave the vault only when someone reveals or copies one, which is recorded.
      </Text>
      <SectionList items={credentials} what="credentials" rows={2} empty="No credentials yet.">
        {(list) => <CredentialList credentials={list} />}
      </SectionList>
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
