import type { InvalidateQueryFilters, Query, QueryClient } from '@tanstack/react-query';
import {
  EVENT_KINDS,
  STREAM_READY_EVENT,
  STREAM_RESET_EVENT,
  clientEventSchema,
  type ClientEvent,
} from '#shared/events.ts';
import {
  appKeys,
  clientKeys,
  credentialKeys,
  issueKeys,
  peopleKeys,
  runKeys,
  serverKeys,
} from './query-keys.ts';
import { meKey } from './session.ts';

type Listener = (event: ClientEvent) => void;

/** Reads of secrets, which the audit trail lists besides the changes to people. */
const AUDITED_READS: ReadonlySet<string> = new Set(['client.password_read', 'credential.revealed']);

const RECONNECT_DELAY_MS = 5_000;
/**
 * Events arriving within this window are answered with one refetch of the list: an import
 * writes thousands of clients at once, and a refetch per event would ask the server for the
 * whole list thousands of times.
 */
const COALESCE_MS = 50;

let source: EventSource | null = null;
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
let flushTimer: ReturnType<typeof setTimeout> | undefined;
/** Clients changed since the last flush, and whether the latest change deleted them. */
let changed = new Map<string, boolean>();
const listeners = new Set<Listener>();

/**
 * Keeps the cache in step with changes made anywhere: one EventSource on /api/events for the
 * whole signed-in app. Each client event invalidates the list and that client; `stream.ready`
 * (after every connect, including the browser's own reconnects) and `stream.reset` invalidate
 * everything, because whatever happened while disconnected may not have reached us.
 * Returns the function that stops it.
 */
export function startLiveUpdates(queryClient: QueryClient): () => void {
  stopLiveUpdates();
  connect(queryClient);
  return stopLiveUpdates;
}

export function stopLiveUpdates(): void {
  clearTimeout(reconnectTimer);
  reconnectTimer = undefined;
  clearTimeout(flushTimer);
  flushTimer = undefined;
  changed = new Map();
  source?.close();
  source = null;
}

/** Lets a screen react to a change itself, e.g. leave a client that was deleted elsewhere. */
export function onClientEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function connect(queryClient: QueryClient): void {
  const events = new EventSource('/api/events');
  source = events;

  for (const kind of EVENT_KINDS) {
    events.addEventListener(kind, (message) => {
      const parsed = clientEventSchema.safeParse(safeJson(message.data));
      if (!parsed.success) {
        console.error('Ignoring a malformed live event', kind, parsed.error);
        return;
      }
      const event = parsed.data;
      for (const listener of listeners) listener(event);
      // A webhook endpoint changed: the audit trail (People) lists it.
      if (event.webhookId !== null) {
        invalidate(queryClient, { queryKey: peopleKeys.all });
        return;
      }
      // The People screen: a change to someone, or a read of a secret (the audit trail).
      if (event.personId !== null || AUDITED_READS.has(event.kind)) {
        invalidate(queryClient, { queryKey: peopleKeys.all });
      }
      if (event.personId !== null) {
        // Perhaps one's own role or tags changed; perhaps who an issue can be given to.
        invalidate(queryClient, { queryKey: meKey });
        invalidate(queryClient, { queryKey: issueKeys.assignees() });
        return;
      }
      if (event.clientId === null) {
        // A credential: the vault, and the servers that show its name.
        invalidate(queryClient, { queryKey: credentialKeys.all });
        if (event.kind !== 'credential.revealed') {
          invalidate(queryClient, { queryKey: serverKeys.all });
        }
        return;
      }
      if (event.issueId !== null) {
        // An issue changes the issues' lists and pages and its client's history, nothing else
        // of its client or server (a check that opens one is a `server.checked` of its own).
        invalidate(queryClient, { queryKey: issueKeys.all });
        invalidate(queryClient, { queryKey: clientKeys.history(event.clientId) });
        if (event.serverId !== null) {
          invalidate(queryClient, { queryKey: serverKeys.history(event.serverId) });
        }
        return;
      }
      // An app or a run of it: its lists and pages, and the histories of its client and of the
      // server it names. Nothing else of the client or its servers changes. Issues name their
      // app, and lose it when it is deleted.
      if (
        event.appId !== null &&
        (event.kind.startsWith('app.') || event.kind.startsWith('run.'))
      ) {
        invalidate(queryClient, { queryKey: appKeys.all });
        if (event.runId !== null) {
          invalidate(queryClient, { queryKey: runKeys.detail(event.runId) });
        }
        if (event.kind.startsWith('app.')) {
          invalidate(queryClient, { queryKey: issueKeys.all });
        }
        invalidate(queryClient, { queryKey: clientKeys.history(event.clientId) });
        if (event.serverId !== null) {
          invalidate(queryClient, { queryKey: serverKeys.history(event.serverId) });
        }
        return;
      }
      if (event.serverId !== null) {
        invalidate(queryClient, { queryKey: serverKeys.all });
        invalidate(queryClient, { queryKey: credentialKeys.all });
        // Apps name their server, and lose it when it is removed.
        invalidate(queryClient, { queryKey: appKeys.all });
      }
      // Reading a password or checking a server changes nothing shown of the client but its
      // history; any other change to one of its servers may change its panel and commands.
      if (event.kind === 'client.password_read' || event.kind === 'server.checked') {
        invalidate(queryClient, { queryKey: clientKeys.history(event.clientId) });
        // The password is kept in a vault credential, whose "last revealed" it sets.
        if (event.kind === 'client.password_read') {
          invalidate(queryClient, { queryKey: credentialKeys.all });
        }
        return;
      }
      changed.set(event.clientId, event.kind === 'client.deleted');
      flushTimer ??= setTimeout(() => flush(queryClient), COALESCE_MS);
    });
  }
  const reloadEverything = () => invalidate(queryClient);
  events.addEventListener(STREAM_READY_EVENT, reloadEverything);
  events.addEventListener(STREAM_RESET_EVENT, reloadEverything);

  events.addEventListener('error', () => {
    // EventSource retries network failures by itself; an HTTP error (401 after the session
    // ended, 5xx from a proxy) closes it for good. Check the session, then try again later.
    if (events.readyState !== EventSource.CLOSED || source !== events) return;
    invalidate(queryClient, { queryKey: meKey });
    reconnectTimer = setTimeout(() => {
      if (source === events) connect(queryClient);
    }, RECONNECT_DELAY_MS);
  });
}

function flush(queryClient: QueryClient): void {
  flushTimer = undefined;
  const batch = changed;
  changed = new Map();
  invalidate(queryClient, { queryKey: clientKeys.list() });
  // A client's form writes its password credential and its primary server, which the vault and
  // the Servers section show; those changes are recorded by the client's own event.
  invalidate(queryClient, { queryKey: credentialKeys.all });
  invalidate(queryClient, { queryKey: serverKeys.all });
  // Apps name their client.
  invalidate(queryClient, { queryKey: appKeys.all });
  // Issues name their client and server, and go with a deleted client.
  invalidate(queryClient, { queryKey: issueKeys.all });
  // One pass over the cache for the whole batch, not one per client: a bulk action or an
  // import changes thousands at once, and each pass looks at every query held.
  const changedHere = (query: Query, deleted: boolean) => {
    const [root, kind, clientId] = query.queryKey;
    return (
      root === clientKeys.all[0] &&
      kind === 'detail' &&
      typeof clientId === 'string' &&
      batch.get(clientId) === deleted
    );
  };
  invalidate(queryClient, { predicate: (query) => changedHere(query, false) });
  invalidate(queryClient, {
    predicate: (query) => changedHere(query, true),
    // A deleted client is only marked stale: refetching it would just be a 404 while the
    // screen showing it moves away.
    refetchType: 'none',
  });
}

/**
 * Marks the queries stale and refetches those on screen. TanStack Query answers a refetch of a
 * query still on its first fetch with that fetch, which may have left before the change; such a
 * fetch is cancelled first, so the one that follows reads the change. Without it, an event that
 * came while a screen was loading (a password read the moment the panel opened) was shown only
 * at the next event or reload.
 */
function invalidate(queryClient: QueryClient, filters: InvalidateQueryFilters = {}): void {
  // Only what is refetched at once: the queries on screen, unless the filters refetch none.
  const restarted = (query: Query) =>
    filters.refetchType !== 'none' &&
    query.isActive() &&
    query.state.data === undefined &&
    query.state.fetchStatus === 'fetching' &&
    (filters.predicate?.(query) ?? true);
  void queryClient
    .cancelQueries({ queryKey: filters.queryKey, predicate: restarted })
    .then(() => queryClient.invalidateQueries(filters));
}

function safeJson(text: unknown): unknown {
  try {
    return typeof text === 'string' ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}
