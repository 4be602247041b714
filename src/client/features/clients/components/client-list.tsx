import {
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { Link, useLocation } from 'react-router';
import {
  ActionIcon,
  Anchor,
  Box,
  Button,
  CloseButton,
  Group,
  Kbd,
  NavLink,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useElementSize, useHotkeys } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { filterIndexed, searchIndex, type IndexedClient } from '#shared/client-search.ts';
import type { ClientSummary } from '#shared/clients.ts';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { useCan } from '#client/lib/use-can.ts';
import { PlusIcon, SearchIcon } from '#client/components/icons.tsx';
import { clientsQuery } from '../api/client-queries.ts';
import { clientTitle } from '../client-title.ts';
import { sortOrder, sortParam } from '../client-sort.ts';
import { useClientSort, useGoToClient } from '../use-client-search.ts';
import { useSearchText } from '../use-search-text.ts';
import { withParam } from '../search-text.ts';
import { useListView } from '../use-list-view.ts';
import { useClientSelection } from '../use-client-selection.ts';
import { RowCheckbox } from './row-checkbox.tsx';
import { SelectionBar } from './selection-bar.tsx';
import { ClientTable } from './client-table.tsx';
import { SortSelect } from './sort-select.tsx';
import { ViewControl } from './view-control.tsx';
import classes from './client-list.module.css';

/** The search index of each list the server sent, folded once, not once per keystroke. */
const indexes = new WeakMap<readonly ClientSummary[], IndexedClient<ClientSummary>[]>();
function indexOf(clients: readonly ClientSummary[]): IndexedClient<ClientSummary>[] {
  let index = indexes.get(clients);
  if (!index) {
    index = searchIndex(clients);
    indexes.set(clients, index);
  }
  return index;
}
/** A row with a one-line description, a table row; rows are measured once drawn. */
const ESTIMATED_ROW_PX = { list: 58, table: 37 };
const ROW_GAP_PX = { list: 2, table: 0 };

export function ClientList({
  selectedId,
  onAdd,
  onSelect,
  selectionActions,
}: {
  selectedId: string | undefined;
  onAdd: () => void;
  /** Called for every click on a row, including the selected one (it closes the form). */
  onSelect: () => void;
  /**
   * What can be done with the selected clients: put into the selection bar, which shows as soon
   * as a box is ticked. Lazy actions bring their own Suspense, with a fallback of their size.
   */
  selectionActions?: (selection: { ids: string[]; clear: () => void }) => ReactNode;
}) {
  const clients = useQuery(clientsQuery());
  const mayWrite = useCan('write');
  const { text: query, setText: setQuery, settle } = useSearchText();
  const { search } = useLocation();
  // A row opened before the URL caught up with the box still carries what the box says.
  const rowSearch = withParam(search, 'q', query);
  const [sort, setSort] = useClientSort();
  const sortKey = sortParam(sort);
  const { view, choosable, setView } = useListView();
  const goToClient = useGoToClient();
  const inputRef = useRef<HTMLInputElement>(null);
  // The list's (or the table's) id; each row's adds its client's id.
  const rowId = useId();
  // The row the arrow keys point at; Enter opens it. Back on the first match for a new query.
  const [cursor, setCursor] = useState({ query, sortKey, index: 0 });
  const [searching, setSearching] = useState(false);

  // Sorted once per list and order (a few tens of milliseconds at ten thousand clients), then
  // searched in that order on every keystroke.
  const sorted = useMemo(() => {
    const data = clients.data;
    if (data === undefined || sort === null) return null;
    const index = indexOf(data);
    const order = sortOrder(index, sort);
    return { clients: order.map((i) => data[i]!), index: order.map((i) => index[i]!) };
  }, [clients.data, sort]);
  const matches = useMemo(
    () =>
      clients.data === undefined
        ? []
        : query === ''
          ? (sorted?.clients ?? clients.data)
          : filterIndexed(sorted?.index ?? indexOf(clients.data), query),
    [clients.data, sorted, query],
  );
  const selection = useClientSelection(clients.data, matches);
  const selecting = selection.selectedIds.length > 0;
  // Folding ten thousand clients takes a good part of a frame budget: not before the list is
  // shown, but while the browser is idle after, so that the first key finds it ready.
  useEffect(() => {
    const data = clients.data;
    if (!data || indexes.has(data)) return;
    const handle = requestIdleCallback(() => indexOf(data));
    return () => cancelIdleCallback(handle);
  }, [clients.data]);
  const active = Math.max(
    0,
    Math.min(
      cursor.query === query && cursor.sortKey === sortKey ? cursor.index : 0,
      matches.length - 1,
    ),
  );

  // Only the rows in (and just around) the window are in the DOM: ten thousand clients would
  // otherwise be ten thousand rows to build, lay out and update on every keystroke. The page
  // keeps scrolling as a whole; the list's offset in it is measured after each render.
  const listRef = useRef<HTMLElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // What sits above the list (the count line while searching, the selection bar) moves it. The
  // bar's height is observed: its buttons wrap on a narrow screen, and its count line grows when
  // the search hides some of the selection.
  const listShown = matches.length > 0;
  const searchingNow = query !== '';
  const { ref: barAreaRef, height: barHeight } = useElementSize();
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    setScrollMargin(Math.round(list.getBoundingClientRect().top + window.scrollY));
  }, [listShown, searchingNow, view, barHeight]);
  const virtualizer = useWindowVirtualizer({
    count: matches.length,
    estimateSize: () => ESTIMATED_ROW_PX[view],
    gap: ROW_GAP_PX[view],
    overscan: 6,
    scrollMargin,
    // A row's measured height belongs to its view.
    getItemKey: (index) => `${view}:${matches[index]?.id ?? index}`,
  });
  // The row the arrows mark, while it is drawn: what aria-activedescendant names.
  const cursorClient =
    searching && virtualizer.getVirtualItems().some((i) => i.index === active)
      ? matches[active]
      : undefined;
  const cursorRow = cursorClient && `${rowId}-${cursorClient.id}`;
  const selectedIndex = useMemo(
    () => (selectedId === undefined ? -1 : matches.findIndex((c) => c.id === selectedId)),
    [matches, selectedId],
  );
  // A shared link or a new client selects a row that may be far down: bring it into view. A row
  // already in view stays where it is, and so does the page. Not before the list's offset in
  // the page is measured: asked earlier, the virtualizer scrolled a visible row under the header.
  useEffect(() => {
    if (selectedIndex < 0 || scrollMargin === 0) return;
    const row = listRef.current?.querySelector(`[data-index="${selectedIndex}"]`);
    const box = row?.getBoundingClientRect();
    if (box && box.top >= 0 && box.bottom <= window.innerHeight) return;
    virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, scrollMargin, virtualizer]);

  // `/` anywhere outside a field jumps to the search box.
  useHotkeys([['/', () => inputRef.current?.focus()]]);

  function open(index: number) {
    const client = matches[index];
    if (!client) return;
    onSelect();
    goToClient(client.id, { query: settle() });
  }

  // In the list or the table (not the search box): Ctrl/Cmd-A selects every match, Escape
  // clears the selection.
  function onListKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const mod = event.ctrlKey || event.metaKey;
    if (mod && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      selection.selectAllShown();
    } else if (event.key === 'Escape' && selecting) {
      event.preventDefault();
      selection.clear();
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (matches.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      const next = (active + step + matches.length) % matches.length;
      setCursor({ query, sortKey, index: next });
      virtualizer.scrollToIndex(next, { align: 'auto' });
    } else if (event.key === 'Enter') {
      event.preventDefault();
      open(active);
    } else if (event.key === 'Escape' && query !== '') {
      event.preventDefault();
      setQuery('');
    }
  }

  const countLine = query !== '' && clients.data !== undefined && (
    <Text size="xs" c="dimmed" mb={4} role="status">
      {`${matches.length} of ${clients.data.length} clients`}
    </Text>
  );

  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={1} size="h3">
          Clients
        </Title>
        {mayWrite && (
          <Tooltip label="Add client">
            <ActionIcon
              variant="filled"
              size="lg"
              radius="xl"
              aria-label="Add client"
              onClick={onAdd}
            >
              <PlusIcon />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>

      <TextInput
        ref={inputRef}
        type="search"
        mb="sm"
        aria-label="Search clients"
        // Mantine ties its description to the input (a hand-set aria-describedby it replaces).
        // Hidden, and after the input, as the hint was: the box keeps its place and size.
        description={
          <VisuallyHidden>
            Up and down arrows move through the matches, Enter opens one, Escape clears.
          </VisuallyHidden>
        }
        inputWrapperOrder={['input', 'description']}
        styles={{ wrapper: { marginBottom: 0 } }}
        // The marked row, in the list or the table, for screen readers.
        aria-activedescendant={cursorRow}
        aria-controls={cursorRow && rowId}
        placeholder="Search name, code, tag, host…"
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        onFocus={() => setSearching(true)}
        onBlur={() => setSearching(false)}
        leftSection={<SearchIcon size={16} />}
        rightSection={
          query === '' ? (
            <Kbd size="xs" className={classes.shortcut}>
              /
            </Kbd>
          ) : (
            <CloseButton size="sm" aria-label="Clear search" onClick={() => setQuery('')} />
          )
        }
      />
      <Group mb="sm" gap="sm" align="flex-end" justify="space-between">
        <SortSelect sort={sort} onChange={setSort} />
        {choosable && <ViewControl view={view} onChange={setView} />}
      </Group>

      <div onKeyDown={onListKeyDown}>
        <div ref={barAreaRef}>
          {selecting && (
            <SelectionBar
              selectedIds={selection.selectedIds}
              hiddenCount={selection.hiddenCount}
              onClear={selection.clear}
            >
              {selectionActions?.({ ids: selection.selectedIds, clear: selection.clear })}
            </SelectionBar>
          )}
        </div>

        {clients.isPending ? (
          <Stack gap="xs" role="status" aria-label="Loading clients">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={52} radius="sm" />
            ))}
          </Stack>
        ) : clients.isError ? (
          <ErrorAlert
            title="Could not load the clients"
            error={clients.error}
            onRetry={() => void clients.refetch()}
          />
        ) : clients.data.length === 0 ? (
          <Stack gap="sm" py="xl" align="center" ta="center">
            <Text c="dimmed">No clients yet.</Text>
            {mayWrite && (
              <Button leftSection={<PlusIcon size={16} />} onClick={onAdd}>
                Add the first client
              </Button>
            )}
          </Stack>
        ) : matches.length === 0 ? (
          <Stack gap={4} py="xl" align="center" ta="center" role="status">
            <Text c="dimmed">{`No clients match “${query}”.`}</Text>
            <Anchor component="button" type="button" size="sm" onClick={() => setQuery('')}>
              Clear search
            </Anchor>
          </Stack>
        ) : (
          <>
            {view === 'table' ? (
              <>
                {countLine}
                <ClientTable
                  id={rowId}
                  matches={matches}
                  virtualizer={virtualizer}
                  scrollMargin={scrollMargin}
                  bodyRef={listRef as Ref<HTMLDivElement>}
                  selectedId={selectedId}
                  cursorIndex={searching ? active : -1}
                  rowSearch={rowSearch}
                  sort={sort}
                  onSort={setSort}
                  onOpen={open}
                  onLinkClick={() => {
                    settle();
                    onSelect();
                  }}
                  rowStart={(client) => <RowCheckbox client={client} selection={selection} />}
                />
              </>
            ) : (
              <nav aria-label="Clients">
                {countLine}
                <Box
                  component="ol"
                  id={rowId}
                  ref={listRef as Ref<HTMLOListElement>}
                  className={classes.list}
                  style={{ height: virtualizer.getTotalSize() }}
                >
                  {virtualizer.getVirtualItems().map((item) => {
                    const index = item.index;
                    const client = matches[index]!;
                    const selected = client.id === selectedId;
                    return (
                      <li
                        key={item.key}
                        data-index={index}
                        ref={virtualizer.measureElement}
                        aria-setsize={matches.length}
                        aria-posinset={index + 1}
                        className={classes.item}
                        style={{ transform: `translateY(${item.start - scrollMargin}px)` }}
                      >
                        <RowCheckbox client={client} selection={selection} />
                        <NavLink
                          id={`${rowId}-${client.id}`}
                          component={Link}
                          to={{
                            pathname: `/clients/${encodeURIComponent(client.id)}`,
                            search: rowSearch,
                          }}
                          onClick={() => {
                            settle();
                            onSelect();
                          }}
                          active={selected}
                          aria-current={selected ? 'true' : undefined}
                          data-cursor={searching && index === active ? true : undefined}
                          variant="light"
                          leftSection={
                            <Text span c="dimmed" size="sm" className={classes.number}>
                              {index + 1}.
                            </Text>
                          }
                          label={clientTitle(client)}
                          description={client.description || undefined}
                          classNames={{
                            root: classes.row,
                            label: classes.label,
                            description: classes.description,
                          }}
                        />
                      </li>
                    );
                  })}
                </Box>
              </nav>
            )}
          </>
        )}
      </div>
    </Paper>
  );
}
