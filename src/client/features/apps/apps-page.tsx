import { useNavigate } from 'react-router';
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
import { runStateSchema } from '#shared/apps.ts';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { PlusIcon, SearchIcon } from '#client/components/icons.tsx';
import { useCan } from '#client/lib/use-can.ts';
import { useUrlSearch } from '#client/lib/use-url-search.ts';
import { appsQuery } from './api/app-queries.ts';
import { AppFormModal } from './components/app-form.tsx';
import { AppList, appPath } from './components/app-list.tsx';
import { RUN_STATE_FILTERS } from './run-look.ts';

/** The Apps section: every app of every client with its last deploy, searched and filtered. */
export function AppsPage() {
  // Search and filter live in the URL (`?q=`, `?state=`), so a link or Back keeps them.
  const { params, search, setSearch, q, setParam } = useUrlSearch();
  const parsedState = runStateSchema.safeParse(params.get('state'));
  const state = parsedState.success ? parsedState.data : '';
  const apps = useQuery({
    ...appsQuery({
      ...(q ? { q } : {}),
      ...(parsedState.success ? { state: parsedState.data } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const [adding, { open: openAdd, close: closeAdd }] = useDisclosure(false);
  const mayWrite = useCan('write');
  const navigate = useNavigate();
  const filtered = q !== '' || state !== '';

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          Apps
        </Title>
        {mayWrite && (
          <Button leftSection={<PlusIcon size={16} />} onClick={openAdd}>
            Add app
          </Button>
        )}
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search apps"
          placeholder="App, client, server or domain"
          leftSection={<SearchIcon size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          style={{ flex: '1 1 240px' }}
          maxLength={200}
        />
        <Select
          label="Last deploy"
          data={RUN_STATE_FILTERS}
          value={state}
          onChange={(value) => setParam('state', value ?? '')}
          allowDeselect={false}
          w={200}
        />
      </Group>
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        {apps.isPending ? (
          <Stack gap="xs" role="status" aria-label="Loading apps">
            <Skeleton height={36} />
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Stack>
        ) : apps.isError ? (
          <ErrorAlert
            title="Could not load the apps"
            error={apps.error}
            onRetry={() => void apps.refetch()}
          />
        ) : apps.data.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            {filtered ? 'No app matches.' : 'No apps yet.'}
          </Text>
        ) : (
          <AppList apps={apps.data} />
        )}
      </Paper>
      <AppFormModal
        opened={adding}
        onClose={closeAdd}
        onSaved={(app) => void navigate(appPath(app.id))}
      />
    </Stack>
  );
}
