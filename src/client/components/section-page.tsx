import type { CSSProperties, ReactNode } from 'react';
import { Button, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorAlert } from './error-alert.tsx';
import { PlusIcon, SearchIcon } from './icons.tsx';
import { usePageTitle } from './page-title.ts';

/**
 * A section's heading (Servers, Apps, Issues, Credentials) and the button that adds one, for
 * those who may (`add` is left out for the others).
 */
export function SectionHeading({
  title,
  add,
}: {
  title: string;
  add?: { label: string; onClick: () => void } | false;
}) {
  usePageTitle(title);
  return (
    <Group justify="space-between" align="center">
      <Title order={1} size="h2">
        {title}
      </Title>
      {add && (
        <Button leftSection={<PlusIcon size={16} />} onClick={add.onClick}>
          {add.label}
        </Button>
      )}
    </Group>
  );
}

/** A section's search box, `Search <what>`; its text lives in the address (use-url-search.ts). */
export function SectionSearch({
  what,
  placeholder,
  value,
  onChange,
  style = { flex: '1 1 240px' },
}: {
  /** 'servers', 'apps'. */
  what: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  style?: CSSProperties;
}) {
  return (
    <TextInput
      label={`Search ${what}`}
      placeholder={placeholder}
      leftSection={<SearchIcon size={16} />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      style={style}
      maxLength={200}
    />
  );
}

/**
 * A section's list as `items` reads it: a skeleton of `rows` rows while it loads, why it could
 * not be read (with Retry), `empty` when there is nothing to list, else `children` with them.
 */
export function SectionList<T>({
  items,
  what,
  rows = 3,
  empty,
  children,
}: {
  items: UseQueryResult<T[]>;
  /** 'servers', 'apps'. */
  what: string;
  rows?: number;
  empty: string;
  children: (items: T[]) => ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
      {items.isPending ? (
        <Stack gap="xs" role="status" aria-label={`Loading ${what}`}>
          {Array.from({ length: rows }, (_, i) => (
            <Skeleton key={i} height={36} />
          ))}
        </Stack>
      ) : items.isError ? (
        <ErrorAlert
          title={`Could not load the ${what}`}
          error={items.error}
          onRetry={() => void items.refetch()}
        />
      ) : items.data.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          {empty}
        </Text>
      ) : (
        children(items.data)
      )}
    </Paper>
  );
}
