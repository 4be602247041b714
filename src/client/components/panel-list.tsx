import type { ReactNode } from 'react';
import { Button, Skeleton, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorAlert } from './error-alert.tsx';
import { PlusIcon } from './icons.tsx';

/**
 * One of a client's lists in its panel (its other servers, its apps, its open issues): a line
 * while it loads, why it could not be read (with Retry), `empty` when there is nothing to list
 * (of what `shown` keeps), else `children` with them; under it, the button that adds one, for
 * those who may (`add` is left out for the others).
 */
export function PanelList<T>({
  items,
  shown = (all) => all,
  what,
  loadingLabel = `Loading ${what}`,
  empty,
  add,
  children,
}: {
  items: UseQueryResult<T[]>;
  shown?: (all: T[]) => T[];
  /** 'servers', 'apps', 'issues'. */
  what: string;
  loadingLabel?: string;
  empty: string;
  add?: { label: string; onClick: () => void } | false;
  children: (items: T[]) => ReactNode;
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
        children(listed)
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
