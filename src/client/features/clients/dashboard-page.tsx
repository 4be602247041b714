import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { filterClients } from '#shared/client-search.ts';
import { Loader } from '@mantine/core';
import { useMediaQuery, useReducedMotion } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { Client } from '#shared/clients.ts';
import { onClientEvent } from '#client/lib/live-updates.ts';
import { clientKeys } from '#client/lib/query-keys.ts';
import { wasDeletedHere } from './deleted-here.ts';
import { BulkActionButtons } from './components/bulk-action-buttons.tsx';
import { ClientList } from './components/client-list.tsx';
import { useGoToClient } from './use-client-search.ts';
import {
  ClientLoading,
  ClientPanelFrame,
  NoClientSelected,
} from './components/client-panel-frame.tsx';
import { LIST_COLUMN, SIDE_COLUMN, STACKED, dashboardFocus as focus } from './dashboard-focus.ts';
import classes from './dashboard-page.module.css';
import { usePageTitle } from '#client/components/page-title.ts';

// The form (number, tag and date inputs and their libraries), the selected client's panel (its
// menu, commands, history and servers) and the bulk actions' dialogs load when first shown: the
// list's first paint does not wait for code it may not need. Until the bulk actions' code is in,
// the selection bar shows their buttons disabled, at their full size.
const ClientPanel = lazy(async () => ({
  default: (await import('./components/client-panel.tsx')).ClientPanel,
}));
const BulkActions = lazy(async () => ({
  default: (await import('./components/bulk-actions.tsx')).BulkActions,
}));
const ClientForm = lazy(async () => ({
  default: (await import('./components/client-form.tsx')).ClientForm,
}));

/**
 * What the right-hand side shows instead of the selected client, if anything. Adding leaves the
 * selected client (no row stays highlighted, the URL is the list's); `from` is where Cancel
 * goes back to.
 */
type FormState =
  | { kind: 'add'; key: number; from: string | undefined }
  | { kind: 'edit'; key: number; client: Client };

export function DashboardPage() {
  usePageTitle('Clients');
  const { clientId } = useParams();
  const { search } = useLocation();
  const goToClient = useGoToClient();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<FormState | null>(null);
  const stacked = useMediaQuery(STACKED) ?? false;
  const sideRef = useRef<HTMLDivElement>(null);

  // A client deleted elsewhere while open here: leave it with a word, not a broken panel.
  useEffect(
    () =>
      onClientEvent((event) => {
        if (event.kind !== 'client.deleted' || event.clientId === null) return;
        if (wasDeletedHere(event.clientId)) return;
        const editing = form?.kind === 'edit' && form.client.id === event.clientId;
        if (event.clientId !== clientId && !editing) return;
        queryClient.removeQueries({ queryKey: clientKeys.detail(event.clientId) });
        if (editing) setForm(null);
        notifications.show({
          color: 'yellow',
          message: `This client was deleted by ${event.actor.name}.`,
        });
        goToClient(null, { replace: true });
      }),
    [clientId, form, goToClient, queryClient],
  );

  // On a phone the panel sits under the list; bring it into view when it changes.
  const showing = form ? `form-${form.key}` : (clientId ?? null);
  // Read as the page draws, not in an effect: the first scroll must follow it too.
  const reduceMotion = useReducedMotion(false, { getInitialValueInEffect: false });
  useEffect(() => {
    if (stacked && showing !== null) {
      sideRef.current?.scrollIntoView({
        behavior: reduceMotion ? 'auto' : 'smooth',
        block: 'start',
      });
    }
  }, [stacked, showing, reduceMotion]);

  function openAddForm() {
    // A second click on + while adding keeps where Cancel goes back to.
    const from = form?.kind === 'add' ? form.from : clientId;
    setForm({ kind: 'add', key: Date.now(), from });
    if (clientId !== undefined) goToClient(null);
  }

  function closeForm() {
    setForm(null);
    if (form?.kind === 'add' && form.from !== undefined) goToClient(form.from, { replace: true });
    if (form?.kind === 'add') focus.addClosed();
    else focus.editClosed();
  }

  return (
    <div className={classes.layout}>
      <div className={classes.list} data-dashboard={LIST_COLUMN}>
        <ClientList
          selectedId={clientId}
          onAdd={openAddForm}
          onSelect={() => setForm(null)}
          selectionActions={({ ids, clear }) => (
            <Suspense fallback={<BulkActionButtons disabled />}>
              <BulkActions ids={ids} onDone={clear} />
            </Suspense>
          )}
        />
      </div>
      <div className={classes.side} ref={sideRef} data-dashboard={SIDE_COLUMN}>
        {form ? (
          <Suspense fallback={<Loader m="xl" aria-label="Loading the form" />}>
            <ClientForm
              key={form.key}
              client={form.kind === 'edit' ? form.client : undefined}
              onCancel={closeForm}
              onSaved={(saved) => {
                setForm(null);
                // The search stays when the saved client is among its matches (an edited one
                // always was); a new one that does not match it clears it, so its row is shown.
                const query = new URLSearchParams(search).get('q') ?? '';
                const shown =
                  form.kind === 'edit' || query === '' || filterClients([saved], query).length > 0;
                goToClient(saved.id, shown ? {} : { query: '' });
                focus.saved(saved.id);
              }}
            />
          </Suspense>
        ) : clientId ? (
          <Suspense
            fallback={
              <ClientPanelFrame>
                <ClientLoading />
              </ClientPanelFrame>
            }
          >
            <ClientPanel
              key={clientId}
              clientId={clientId}
              onEdit={(client) => setForm({ kind: 'edit', key: Date.now(), client })}
            />
          </Suspense>
        ) : (
          <NoClientSelected />
        )}
      </div>
    </div>
  );
}
