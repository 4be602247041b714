import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { openConfirmModal } from '#client/lib/confirm-modal.tsx';
import { notifications } from '@mantine/notifications';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { bulkTagListSchema, bulkTagRemovalSchema } from '#shared/client-bulk.ts';
import { errorMessage, isApiError } from '#client/lib/api-client.ts';
import { notifyFailure } from '#client/lib/notify-failure.ts';
import { IncludePasswordsChoice } from '#client/components/include-passwords-choice.tsx';
import {
  downloadSelectedExport,
  restoreClients,
  useBulkDelete,
  useBulkTags,
} from '../api/bulk-mutations.ts';
import { useGoToClient } from '../use-client-search.ts';
import { BulkActionButtons, type BulkAction } from './bulk-action-buttons.tsx';
import { FormActions } from '#client/components/form-actions.tsx';

/** "1 client", "3 clients". */
export function clientCount(n: number): string {
  return `${n.toLocaleString('en')} ${n === 1 ? 'client' : 'clients'}`;
}

type Dialog = Exclude<BulkAction, 'delete'>;

/**
 * What can be done to the selected clients at once: add or remove a tag, export them, delete
 * them (one confirmation, then one Undo for all). It takes over the bar's buttons, which show
 * before this code has loaded. `onDone` is called after each action has succeeded: the
 * selection has served (after a delete it is gone).
 */
export function BulkActions({ ids, onDone }: { ids: string[]; onDone: () => void }) {
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const queryClient = useQueryClient();
  const remove = useBulkDelete();
  const { clientId } = useParams();
  const goToClient = useGoToClient();
  const none = ids.length === 0;

  function confirmDelete() {
    // The selection as it was when asked: it may change while the confirmation is open.
    const chosen = [...ids];
    openConfirmModal({
      title: `Delete ${clientCount(chosen.length)}?`,
      children: (
        <Text size="sm">
          {chosen.length === 1 ? 'It' : 'All of them'} can be brought back with Undo for{' '}
          {UNDO_SECONDS} seconds after; {chosen.length === 1 ? 'its' : 'their'} history is kept.
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(chosen, {
          onSuccess: () => {
            showUndoDelete(chosen, queryClient);
            if (clientId !== undefined && chosen.includes(clientId)) goToClient(null);
            onDone();
          },
          onError: (error) =>
            notifyFailure(`Could not delete the ${clientCount(chosen.length)}`, error),
        }),
    });
  }

  return (
    <>
      <BulkActionButtons
        disabled={none}
        deleting={remove.isPending}
        onAction={(action) => (action === 'delete' ? confirmDelete() : setDialog(action))}
      />
      {(dialog === 'add' || dialog === 'remove') && (
        <TagDialog
          mode={dialog}
          ids={ids}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            onDone();
          }}
        />
      )}
      {dialog === 'export' && (
        <ExportDialog
          ids={ids}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            onDone();
          }}
        />
      )}
    </>
  );
}

const UNDO_SECONDS = 10;

/** "3 clients deleted." with one Undo, for ten seconds, that restores them all. */
function showUndoDelete(ids: readonly string[], queryClient: QueryClient) {
  const id = `bulk-deleted-${Date.now()}`;
  const count = clientCount(ids.length);
  const undo = () => {
    notifications.hide(id);
    restoreClients(queryClient, ids).then(
      () => notifications.show({ color: 'green', message: `${count} restored.` }),
      (error: unknown) => notifyFailure(`Could not restore the ${count}`, error),
    );
  };
  notifications.show({
    id,
    color: 'green',
    autoClose: UNDO_SECONDS * 1000,
    message: (
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm">{count} deleted.</Text>
        <Button size="compact-sm" variant="light" onClick={undo}>
          Undo
        </Button>
      </Group>
    ),
  });
}

/** "Tag vip added to 3 clients." and how many had nothing to change. */
function tagSummary(mode: 'add' | 'remove', tags: string[], changed: number, total: number) {
  const named = `${tags.length === 1 ? 'Tag' : 'Tags'} ${tags.join(', ')}`;
  const done =
    mode === 'add'
      ? `${named} added to ${clientCount(changed)}`
      : `${named} removed from ${clientCount(changed)}`;
  const rest = total - changed;
  if (rest === 0) return `${done}.`;
  const why =
    mode === 'add'
      ? `had ${tags.length === 1 ? 'it' : 'them'} already`
      : `did not have ${tags.length === 1 ? 'it' : 'them'}`;
  return `${done} (${rest.toLocaleString('en')} ${why}).`;
}

function TagDialog({
  mode,
  ids,
  onClose,
  onDone,
}: {
  mode: 'add' | 'remove';
  ids: string[];
  onClose: () => void;
  onDone: () => void;
}) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const change = useBulkTags();
  const count = clientCount(ids.length);

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    // The form's tag rules, from the same schema the server checks.
    const parsed = (mode === 'add' ? bulkTagListSchema : bulkTagRemovalSchema).safeParse(value);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Not a valid tag');
      return;
    }
    setError(null);
    const tags = parsed.data;
    const request = mode === 'add' ? { ids, add: tags } : { ids, remove: tags };
    change.mutate(request, {
      onSuccess: (result) => {
        notifications.show({
          color: 'green',
          message: tagSummary(mode, tags, result.changed.length, ids.length),
        });
        onDone();
      },
      onError: (failure) => {
        // A refusal of the tags goes next to the field; anything else (a client deleted
        // meanwhile, no connection) above the buttons.
        const fieldError = isApiError(failure)
          ? Object.entries(failure.fields).find(
              ([key]) => key === mode || key.startsWith(`${mode}.`),
            )?.[1]
          : undefined;
        if (fieldError !== undefined) setError(fieldError);
        else setProblem(errorMessage(failure));
      },
    });
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title={mode === 'add' ? `Add a tag to ${count}` : `Remove a tag from ${count}`}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={mode === 'add' ? 'Tag to add' : 'Tag to remove'}
            description={
              mode === 'add'
                ? 'Added after their own tags, so each keeps its deploy server. Separate several with commas.'
                : 'Separate several with commas.'
            }
            value={value}
            onChange={(event) => {
              setValue(event.currentTarget.value);
              setError(null);
            }}
            error={error}
            data-autofocus
            autoComplete="off"
          />
          {problem && (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          )}
          <FormActions
            onCancel={onClose}
            saving={change.isPending}
            submit={mode === 'add' ? 'Add' : 'Remove'}
          />
        </Stack>
      </form>
    </Modal>
  );
}

function ExportDialog({
  ids,
  onClose,
  onDone,
}: {
  ids: string[];
  onClose: () => void;
  onDone: () => void;
}) {
  const [secrets, setSecrets] = useState(false);
  const [busy, setBusy] = useState(false);
  const count = clientCount(ids.length);

  async function exportNow() {
    setBusy(true);
    try {
      await downloadSelectedExport(ids, secrets);
      notifications.show({ color: 'green', message: `${count} exported.` });
      onDone();
    } catch (error) {
      notifyFailure('The export failed', error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title={`Export ${count}`}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          A JSON file that Settings (or <code>npm run clients -- import</code>) can import again.
        </Text>
        <IncludePasswordsChoice
          checked={secrets}
          onChange={setSecrets}
          whose="these clients' server passwords"
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void exportNow()} loading={busy}>
            {secrets ? 'Export with passwords' : 'Export'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
