import { useNavigate } from 'react-router';
import { Group, Select, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { runStateSchema } from '#shared/apps.ts';
import { useCan } from '#client/lib/use-can.ts';
import { useUrlSearch } from '#client/lib/use-url-search.ts';
import { appsQuery } from './api/app-queries.ts';
import { AppFormModal } from './components/app-form.tsx';
import { AppList, appPath } from './components/app-list.tsx';
import { RUN_STATE_FILTERS } from './run-look.ts';
import { SectionHeading, SectionList, SectionSearch } from '#client/components/section-page.tsx';

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
      <SectionHeading title="Apps" add={mayWrite && { label: 'Add app', onClick: openAdd }} />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SectionSearch
          what="apps"
          placeholder="App, client, server or domain"
          value={search}
          onChange={setSearch}
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
      <SectionList items={apps} what="apps" empty={filtered ? 'No app matches.' : 'No apps yet.'}>
        {(list) => <AppList apps={list} />}
      </SectionList>
      <AppFormModal
        opened={adding}
        onClose={closeAdd}
        onSaved={(app) => void navigate(appPath(app.id))}
      />
    </Stack>
  );
}
