import { useId, useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '#client/lib/api-client.ts';
import {
  passkeysQuery,
  useAddPasskey,
  useRemovePasskey,
  useRenamePasskey,
  type PasskeyRow,
} from './passkey-queries.ts';
import { confirmAction } from '#client/lib/confirm-action.tsx';
import { focusFirstError, showFieldRefusal } from '#client/lib/form-errors.ts';

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const MAX_NAME = 100;

function nameRule(value: string): string | null {
  if (value.trim() === '') return 'Enter a name';
  if (value.trim().length > MAX_NAME) return `Must be at most ${MAX_NAME} characters`;
  return null;
}

/** Settings: the passkeys that sign this person in (a device's fingerprint, face or PIN). */
export function PasskeysSection() {
  const passkeys = useQuery(passkeysQuery());
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="passkeys-title">
      <Stack gap="md">
        <Title order={2} size="h4" id="passkeys-title">
          Passkeys
        </Title>
        <Text size="sm" c="dimmed">
          A passkey signs you in with this device&apos;s fingerprint, face or PIN instead of your
          password and code.
        </Text>
        {passkeys.isPending && <Skeleton h={60} />}
        {passkeys.isError && (
          <Alert color="red" role="alert" title="Could not load your passkeys">
            {errorMessage(passkeys.error)}
          </Alert>
        )}
        {passkeys.data && passkeys.data.length === 0 && (
          <Text size="sm">You have no passkeys yet.</Text>
        )}
        {passkeys.data && passkeys.data.length > 0 && (
          <Table verticalSpacing="xs" aria-label="Your passkeys">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Added</Table.Th>
                <Table.Th>
                  <Text span size="sm" fw={700} style={visuallyHidden}>
                    Actions
                  </Text>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {passkeys.data.map((passkey) => (
                <PasskeyTableRow key={passkey.id} passkey={passkey} />
              ))}
            </Table.Tbody>
          </Table>
        )}
        <AddPasskey />
      </Stack>
    </Paper>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

function displayName(passkey: PasskeyRow): string {
  return passkey.name?.trim() || 'Unnamed passkey';
}

function PasskeyTableRow({ passkey }: { passkey: PasskeyRow }) {
  const [renaming, setRenaming] = useState(false);
  const remove = useRemovePasskey();
  const name = displayName(passkey);

  function confirmRemove() {
    confirmAction({
      title: 'Remove passkey',
      text: `Remove ${name}? It will no longer sign you in.`,
      confirm: 'Remove',
      run: () => remove.mutateAsync(passkey.id),
      done: 'Passkey removed.',
    });
  }

  return (
    <Table.Tr>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>
        {renaming ? (
          <RenameForm passkey={passkey} onDone={() => setRenaming(false)} />
        ) : (
          <Text size="sm">{name}</Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{when.format(new Date(passkey.createdAt))}</Text>
      </Table.Td>
      <Table.Td>
        {!renaming && (
          <Group gap="xs" justify="flex-end">
            <Button
              size="xs"
              variant="default"
              onClick={() => setRenaming(true)}
              aria-label={`Rename ${name}`}
            >
              Rename
            </Button>
            <Button
              size="xs"
              variant="default"
              color="red"
              onClick={confirmRemove}
              loading={remove.isPending}
              aria-label={`Remove ${name}`}
            >
              Remove
            </Button>
          </Group>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function RenameForm({ passkey, onDone }: { passkey: PasskeyRow; onDone: () => void }) {
  const rename = useRenamePasskey();
  const formId = useId();
  const form = useForm({
    initialValues: { name: passkey.name ?? '' },
    validate: { name: nameRule },
  });
  const submit = form.onSubmit(
    async ({ name }) => {
      try {
        await rename.mutateAsync({ id: passkey.id, name: name.trim() });
        onDone();
      } catch (error) {
        showFieldRefusal(form, formId, 'name', errorMessage(error));
      }
    },
    () => focusFirstError(formId),
  );
  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <TextInput
          label="New name"
          size="xs"
          data-autofocus
          required
          {...form.getInputProps('name')}
        />
        <Button type="submit" size="xs" mt={22} loading={form.submitting}>
          Save
        </Button>
        <Button size="xs" mt={22} variant="default" onClick={onDone}>
          Cancel
        </Button>
      </Group>
    </form>
  );
}

/** Adds a passkey of this device (or a security key), with a name to tell it apart. */
export function AddPasskey({ onAdded }: { onAdded?: () => void }) {
  const add = useAddPasskey();
  const formId = useId();
  const form = useForm({
    initialValues: { name: '' },
    validate: { name: nameRule },
  });
  const submit = form.onSubmit(
    async ({ name }) => {
      try {
        await add.mutateAsync(name.trim());
        form.reset();
        notifications.show({ color: 'green', message: 'Passkey added.' });
        onAdded?.();
      } catch (error) {
        showFieldRefusal(form, formId, 'name', errorMessage(error));
      }
    },
    () => focusFirstError(formId),
  );
  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Group gap="sm" align="flex-end">
        <TextInput
          label="Passkey name"
          description="For example the device it is on"
          placeholder="Work laptop"
          required
          style={{ flex: 1, minWidth: 200 }}
          {...form.getInputProps('name')}
        />
        <Button type="submit" loading={form.submitting}>
          Add a passkey
        </Button>
      </Group>
    </form>
  );
}
