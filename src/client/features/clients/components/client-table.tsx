import type { ReactNode, Ref } from 'react';
import { Link } from 'react-router';
import { Text, UnstyledButton } from '@mantine/core';
import type { Virtualizer } from '@tanstack/react-virtual';
import type { ClientSummary } from '#shared/clients.ts';
import { formatDate } from '#client/lib/format-date.ts';
import { clientTitle } from '../client-title.ts';
import type { ClientSort, SortKey } from '../client-sort.ts';
import classes from './client-table.module.css';

interface Column {
  label: string;
  /** The order its header sets; null: not sortable. */
  sortKey: SortKey | null;
}

const COLUMNS: readonly Column[] = [
  { label: 'Name', sortKey: 'name' },
  { label: 'Code', sortKey: 'code' },
  { label: 'First tag', sortKey: null },
  { label: 'Host', sortKey: null },
  { label: 'Start date', sortKey: 'start' },
  { label: 'Last changed by', sortKey: 'changed' },
];

/** A header's next order: names A to Z first, dates newest first; again, the other way. */
function nextSort(current: ClientSort | null, key: SortKey): ClientSort {
  if (current?.key === key) return { key, descending: !current.descending };
  return { key, descending: key === 'start' || key === 'changed' };
}

const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function SortArrow({ direction }: { direction: 'ascending' | 'descending' | 'none' }) {
  return (
    <span aria-hidden="true">
      {direction === 'descending' ? '↓' : direction === 'ascending' ? '↑' : '↕'}
    </span>
  );
}

/**
 * The compact view: one line a client in columns, virtualized like the list (only the rows in
 * view are in the DOM). An ARIA table of CSS-grid rows, since rows placed by transform cannot
 * be a real table's rows. The name cell is the link that opens the client; a click anywhere
 * else on the row opens it too.
 */
export function ClientTable({
  id,
  matches,
  virtualizer,
  scrollMargin,
  bodyRef,
  selectedId,
  cursorIndex,
  rowSearch,
  sort,
  onSort,
  onOpen,
  onLinkClick,
  rowStart,
}: {
  /** The table's id; each row's adds its client's id (what the search box's marked row names). */
  id: string;
  matches: readonly ClientSummary[];
  virtualizer: Virtualizer<Window, Element>;
  scrollMargin: number;
  bodyRef: Ref<HTMLDivElement>;
  selectedId: string | undefined;
  /** The row Enter in the search box would open, marked while searching; -1 for none. */
  cursorIndex: number;
  rowSearch: string;
  sort: ClientSort | null;
  onSort: (next: ClientSort) => void;
  /** A click on the row outside its link and controls. */
  onOpen: (index: number) => void;
  onLinkClick: () => void;
  /** What a row shows before its cells (its selection box). */
  rowStart?: ((client: ClientSummary, index: number) => ReactNode) | undefined;
}) {
  return (
    // Narrower than its columns (beside the client panel, or on a tablet), the table scrolls
    // sideways; keyboard users reach that scroll by Tab.
    <div className={classes.scroll} tabIndex={0}>
      <div
        role="table"
        id={id}
        aria-label="Clients"
        aria-rowcount={matches.length + 1}
        className={classes.table}
      >
        <div role="rowgroup">
          <div role="row" aria-rowindex={1} className={`${classes.row} ${classes.head}`}>
            <div role="columnheader" className={classes.start}>
              <span className={classes.hidden}>Select</span>
            </div>
            {COLUMNS.map((column) => {
              if (column.sortKey === null) {
                return (
                  <div role="columnheader" key={column.label} className={classes.cell}>
                    {column.label}
                  </div>
                );
              }
              const key = column.sortKey;
              const direction =
                sort?.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none';
              return (
                <div
                  role="columnheader"
                  key={column.label}
                  aria-sort={direction}
                  className={classes.cell}
                >
                  <UnstyledButton
                    className={classes.sort}
                    onClick={() => onSort(nextSort(sort, key))}
                  >
                    {column.label}
                    <SortArrow direction={direction} />
                  </UnstyledButton>
                </div>
              );
            })}
          </div>
        </div>
        <div
          role="rowgroup"
          ref={bodyRef}
          className={classes.body}
          style={{ height: virtualizer.getTotalSize() }}
        >
          {virtualizer.getVirtualItems().map((item) => {
            const index = item.index;
            const client = matches[index]!;
            const selected = client.id === selectedId;
            const firstTag = client.tags[0] ?? '';
            return (
              <div
                role="row"
                id={`${id}-${client.id}`}
                key={item.key}
                data-index={index}
                ref={virtualizer.measureElement}
                aria-rowindex={index + 2}
                className={classes.row}
                data-selected={selected || undefined}
                data-cursor={index === cursorIndex || undefined}
                style={{ transform: `translateY(${item.start - scrollMargin}px)` }}
                onClick={(event) => {
                  // The link and the selection box do their own thing.
                  if ((event.target as Element).closest('a, input, button, label')) return;
                  onOpen(index);
                }}
              >
                <div role="cell" className={classes.start}>
                  {rowStart?.(client, index)}
                  <Text span size="xs" c="dimmed" className={classes.number}>
                    {index + 1}.
                  </Text>
                </div>
                <div role="cell" className={classes.cell}>
                  <Link
                    to={{
                      pathname: `/clients/${encodeURIComponent(client.id)}`,
                      search: rowSearch,
                    }}
                    className={classes.link}
                    aria-current={selected ? 'true' : undefined}
                    onClick={onLinkClick}
                  >
                    {clientTitle(client)}
                  </Link>
                </div>
                <div role="cell" className={classes.cell}>
                  {client.code}
                </div>
                <div role="cell" className={classes.cell} title={firstTag || undefined}>
                  {firstTag}
                </div>
                <div role="cell" className={classes.cell} title={client.server.host || undefined}>
                  {client.server.host}
                </div>
                <div role="cell" className={classes.cell}>
                  {client.startDate ? formatDate(client.startDate) : ''}
                </div>
                <div
                  role="cell"
                  className={classes.cell}
                  title={`${client.updatedBy ?? 'Unknown'}, ${timeFormat.format(new Date(client.updatedAt))}`}
                >
                  {client.updatedBy ?? '—'}
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
