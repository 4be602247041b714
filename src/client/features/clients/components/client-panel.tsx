import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Menu,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { openConfirmModal } from '#client/lib/confirm-modal.tsx';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { clientIdSchema, type Client } from '#shared/clients.ts';
import { tagQuery } from '#shared/client-search.ts';
import { notifyFailure } from '#client/lib/notify-failure.ts';
import { focusWhenShown } from '#client/lib/focus-when-shown.ts';
import { useClientPanelSlots } from '#client/lib/client-panel-slots.ts';
import { RecordUnavailable } from '#client/components/record-unavailable.tsx';
import { VisibleText } from '#client/components/visible-text.tsx';
import { formatDate } from '#client/lib/format-date.ts';
import { CopyIcon, DotsIcon, EditIcon, TrashIcon } from '#client/components/icons.tsx';
import { clientQuery } from '../api/client-queries.ts';
import { restoreClient, useDeleteClient, useDuplicateClient } from '../api/client-mutations.ts';
import { clientTitle } from '../client-title.ts';
import { dashboardFocus as focus } from '../dashboard-focus.ts';
import { useClientSearch, useGoToClient } from '../use-client-search.ts';
import { ClientHistory } from './client-history.tsx';
import { ClientCommands } from './client-commands.tsx';
import { Section } from '#client/components/section.tsx';
import { ServerJson } from './server-json.tsx';
import { useCan } from '#client/lib/use-can.ts';
import { ClientLoading, ClientPanelFrame } from './client-panel-frame.tsx';
import { BareList } from '#client/components/bare-list.tsx';
import { useIsMounted } from '#client/lib/is-mounted.ts';

export function ClientPanel({
  clientId,
  onEdit,
}: {
  clientId: string;
  onEdit: (client: Client) => void;
}) {
  // An address no client id can have (a mistyped or cut link) names no client: nothing to ask
  // the server, and nothing Try again could mend.
  const wellFormed = clientIdSchema.safeParse(clientId).success;
  const client = useQuery({ ...clientQuery(clientId), enabled: wellFormed });
  // Every action of the menu writes: a viewer gets no menu.
  const mayWrite = useCan('write');

  return (
    <ClientPanelFrame
      title={
        client.isSuccess && (
          // Focus lands here after saving when the client's row is not in the list.
          <Title
            order={3}
            size="h3"
            style={{ overflowWrap: 'anywhere' }}
            tabIndex={-1}
            data-client-heading
          >
            {clientTitle(client.data)}
          </Title>
        )
      }
      actions={
        client.isSuccess && mayWrite && <ClientActions client={client.data} onEdit={onEdit} />
      }
    >
      {!wellFormed || client.isError ? (
        <RecordUnavailable
          error={client.error}
          notFound={!wellFormed}
          onRetry={() => void client.refetch()}
          noun="client"
          gone="deleted"
          back={{ to: '/', label: 'Back to all clients' }}
          heading={{ order: 3, size: 'h3' }}
        />
      ) : client.isPending ? (
        <ClientLoading />
      ) : (
        <ClientDetails client={client.data} />
      )}
    </ClientPanelFrame>
  );
}

function ClientDetails({ client }: { client: Client }) {
  const { OtherServers, Apps, OpenIssues } = useClientPanelSlots();
  return (
    <>
      {client.description && (
        <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {client.description}
        </Text>
      )}

      <Section order={4} title="Tags">
        {client.tags.length === 0 ? (
          <Text size="sm" c="dimmed">
            No tags
          </Text>
        ) : (
          <Group gap={6}>
            {client.tags.map((tag, index) => (
              <Group key={tag} gap={6} wrap="nowrap">
                <TagChip tag={tag} first={index === 0} />
                {index === 0 && (
                  <Text size="xs" c="dimmed">
                    deploy server
                  </Text>
                )}
              </Group>
            ))}
          </Group>
        )}
      </Section>

      <Section order={4} title="Server">
        <ServerJson client={client} />
      </Section>

      {OtherServers && (
        <Section order={4} title="Other servers">
          <OtherServers client={client} />
        </Section>
      )}

      {Apps && (
        <Section order={4} title="Apps">
          <Apps client={client} />
        </Section>
      )}

      {OpenIssues && (
        <Section order={4} title="Open issues">
          <OpenIssues client={client} />
        </Section>
      )}

      <Section order={4} title="Commands">
        <ClientCommands clientId={client.id} />
      </Section>

      <Section order={4} title="Domains">
        {client.domains.length === 0 ? (
          <Text size="sm" c="dimmed">
            No domains
          </Text>
        ) : (
          <BareList gap={4}>
            {client.domains.map((domain) => (
              <li key={domain}>
                <Anchor
                  href={domain}
                  target="_blank"
                  rel="noopener noreferrer"
                  size="sm"
                  style={{ overflowWrap: 'anywhere' }}
                >
                  <VisibleText text={domain} />
                </Anchor>
              </li>
            ))}
          </BareList>
        )}
      </Section>

      <Text size="sm" c="dimmed">
        {`Client since: ${formatDate(client.startDate)}`}
      </Text>

      <Section order={4} title="History">
        <ClientHistory clientId={client.id} />
      </Section>
    </>
  );
}

/** A tag is a chip that filters the list by it; the first one selects the deploy server. */
function TagChip({ tag, first }: { tag: string; first: boolean }) {
  const [, setQuery] = useClientSearch();
  return (
    <Tooltip
      label={first ? 'The first tag selects the deploy server. Click to filter' : 'Filter by tag'}
    >
      <Badge
        component="button"
        type="button"
        aria-label={`Filter by tag ${tag}`}
        variant={first ? 'filled' : 'light'}
        style={{ textTransform: 'none', cursor: 'pointer' }}
        onClick={() => setQuery(tagQuery(tag))}
      >
        <VisibleText text={tag} />
      </Badge>
    </Tooltip>
  );
}

const UNDO_SECONDS = 10;

/**
 * "Client deleted." with an Undo button for ten seconds, which restores it and opens it.
 *
 * Focus moves to Undo: the deleted client's panel and row, where it was, are gone, and a
 * notification at the end of the page could not be reached by Tab in time otherwise. Mantine
 * stops the countdown while focus is inside. When the notification closes with focus in it,
 * focus goes to the list.
 */
function showUndoDelete(client: Client, queryClient: QueryClient, open: (id: string) => void) {
  const id = `deleted-${client.id}`;
  const undoId = `undo-${id}`;
  const undo = () => {
    notifications.hide(id);
    restoreClient(queryClient, client.id).then(
      (restored) => {
        notifications.show({ color: 'green', message: `${clientTitle(restored)} restored.` });
        open(encodeURIComponent(restored.id));
        focus.restored(restored.id);
      },
      (error: unknown) => notifyFailure('Could not restore the client', error),
    );
  };
  notifications.show({
    id,
    color: 'green',
    autoClose: UNDO_SECONDS * 1000,
    onClose: () => {
      const inside = document.activeElement?.closest('.mantine-Notification-root');
      if (inside?.contains(document.getElementById(undoId))) focus.list();
    },
    message: (
      // Room for Undo's focus ring, which the notification's body would otherwise clip.
      <Group justify="space-between" wrap="nowrap" gap="sm" p={4}>
        <Text size="sm">Client deleted.</Text>
        <Button id={undoId} size="compact-sm" variant="light" onClick={undo}>
          Undo
        </Button>
      </Group>
    ),
  });
  focusWhenShown(() => document.getElementById(undoId));
}

function ClientActions({ client, onEdit }: { client: Client; onEdit: (client: Client) => void }) {
  const goToClient = useGoToClient();
  const queryClient = useQueryClient();
  const duplicate = useDuplicateClient();
  const remove = useDeleteClient();
  const isMounted = useIsMounted();

  function confirmDuplicate() {
    openConfirmModal({
      title: 'Duplicate client',
      children: <Text size="sm">Are you sure you want to clone this client?</Text>,
      labels: { confirm: 'Duplicate', cancel: 'Cancel' },
      // Said whatever the person did meanwhile (a mutate call's own callbacks are dropped once
      // the panel is gone); the list is shown again only if they are still on this client.
      onConfirm: () =>
        void duplicate.mutateAsync(client.id).then(
          (copy) => {
            notifications.show({ color: 'green', message: 'Client duplicated.' });
            if (!isMounted()) return;
            goToClient(null);
            focus.duplicated(copy.id, client.id);
          },
          (error: unknown) => notifyFailure('Could not duplicate the client', error),
        ),
    });
  }

  function confirmDelete() {
    openConfirmModal({
      title: 'Delete client',
      children: <Text size="sm">Are you sure you want to delete this client?</Text>,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        void remove.mutateAsync(client.id).then(
          () => {
            showUndoDelete(client, queryClient, goToClient);
            if (isMounted()) goToClient(null);
          },
          (error: unknown) => notifyFailure('Could not delete the client', error),
        ),
    });
  }

  return (
    <Menu position="bottom-end" shadow="md" width={180}>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label="Client actions"
          loading={duplicate.isPending || remove.isPending}
        >
          <DotsIcon />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<EditIcon size={16} />} onClick={() => onEdit(client)}>
          Edit
        </Menu.Item>
        <Menu.Item leftSection={<CopyIcon size={16} />} onClick={confirmDuplicate}>
          Duplicate
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="var(--mantine-color-error)"
          leftSection={<TrashIcon size={16} />}
          onClick={confirmDelete}
        >
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
