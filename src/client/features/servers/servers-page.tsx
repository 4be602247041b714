import {
  Button,
  Group,
  Paper,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { serverStatusSchema } from '#shared/servers.ts';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { PlusIcon, SearchIcon } from '#client/components/icons.tsx';
import { serversQuery } from '#client/lib/server-queries.ts';
import { ServerFormModal } from './components/server-form.tsx';
import { useCan } from '#client/lib/use-can.ts';
import { useUrlSearch } from '#client/lib/use-url-search.ts';
import { ServerList } from './components/server-list.tsx';
import { STATUS_FILTERS } from '#client/lib/server-status.ts';

/** The Servers section: every server of every client, searched and filtered by the API. */
export function ServersPage() {
  // Search and filter live in the URL (`?q=`, `?status=`), so a link or Back keeps them.
  const { params, search, setSearch, q, setParam } = useUrlSearch();
  const parsedStatus = serverStatusSchema.safeParse(params.get('status'));
  const status = parsedStatus.success ? parsedStatus.data : '';
  const servers = useQuery({
    ...serversQuery({
      ...(q ? { q } : {}),
      ...(parsedStatus.success ? { status: parsedStatus.data } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const [adding, { open: openAdd, close: closeAdd }] = useDisclosure(false);
  const mayWrite = useCan('write');
  const filtered = q !== '' || status !== '';

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          Servers
        </Title>
        {mayWrite && (
          <Button leftSection={<PlusIcon size={16} />} onClick={openAdd}>
            Add server
          </Button>
        )}
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search servers"
          placeholder="Label, host, user or client"
          leftSection={<SearchIcon size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          style={{ flex: '1 1 240px' }}
          maxLength={200}
        />
        <Select
          label="Status"
          data={STATUS_FILTERS.map((option) => ({ ...option }))}
          value={status}
          onChange={(value) => setParam('status', value ?? '')}
          allowDeselect={false}
          w={200}
        />
      </Group>
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        {servers.isPending ? (
          <Stack gap="xs" role="status" aria-label="Loading servers">
            <Skeleton height={36} />
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Stack>
        ) : servers.isError ? (
          <ErrorAlert
            title="Could not load the servers"
            error={servers.error}
            onRetry={() => void servers.refetch()}
          />
        ) : servers.data.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            {filtered ? 'No server matches.' : 'No servers yet.'}
          </Text>
        ) : (
          <ServerList servers={servers.data} />
        )}
      </Paper>
      <ServerFormModal opened={adding} onClose={closeAdd} />
    </Stack>
  );
}
