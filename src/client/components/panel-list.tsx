import type { ReactNode } from 'react';
import { Anchor, Button, Skeleton, Stack, Text, type MantineSpacing } from '@mantine/core';
import { Link } from 'react-router';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorAlert } from './error-alert.tsx';
import { PlusIcon } from './icons.tsx';
import { BareList } from './bare-list.tsx';

/**
 * One of a client's lists in its panel (its other servers, its apps, its open issues): a line
 * while it loads, why it could not be read (with Retry), `empty` when there is nothing to list
 * (of what `shown` keeps), else a list of them, named `label`, each item drawn by `children`;
 * under it, the button that adds one, for those who may (`add` is left out for the others).
 */
export function PanelList<T>({
  items,
  shown = (all) => all,
  what,
  loadingLabel = `Loading ${what}`,
  empty,
  add,
  label,
  keyOf,
  gap = 6,
  children,
}: {
  items: UseQueryResult<T[]>;
  shown?: (all: T[]) => T[];
  /** 'servers', 'apps', 'issues'. */
  what: string;
  loadingLabel?: string;
  empty: string;
  add?: { label: string; onClick: () => void } | false;
  label?: string;
  keyOf: (item: T) => string;
  gap?: MantineSpacing;
  children: (item: T) => ReactNode;
}) {
  let body: ReactNode;
  if (items.isPending) {
    body = <Skeleton height={32} role="status" aria-label={loadingLabel} />;
  } else if (items.isError) {
    body = (
      <ErrorAlert
        title={`Could not load the ${what}`}
        error={items.error}
        onRetry={() => void items.refetch()}
      />
    );
  } else {
    const listed = shown(items.data);
    body =
      listed.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <BareList gap={gap} label={label}>
          {listed.map((item) => (
            <li key={keyOf(item)}>{children(item)}</li>
          ))}
        </BareList>
      );
  }
  return (
    <Stack gap="xs">
      {body}
      {add && (
        <Button
          variant="light"
          size="compact-sm"
          leftSection={<PlusIcon size={14} />}
          style={{ alignSelf: 'flex-start' }}
          onClick={add.onClick}
        >
          {add.label}
        </Button>
      )}
    </Stack>
  );
}

/** An item's name in a panel list, linking to its own page; a long name wraps anywhere. */
export function PanelLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
      {children}
    </Anchor>
  );
}
