import { Group, Select, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { serverStatusSchema } from '#shared/servers.ts';
import { serversQuery } from '#client/lib/server-queries.ts';
import { ServerFormModal } from './components/server-form.tsx';
import { useCan } from '#client/lib/use-can.ts';
import { useUrlSearch } from '#client/lib/use-url-search.ts';
import { ServerList } from './components/server-list.tsx';
import { STATUS_FILTERS } from '#client/lib/server-status.ts';
import { SectionHeading, SectionList, SectionSearch } from '#client/components/section-page.tsx';

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
      <SectionHeading title="Servers" add={mayWrite && { label: 'Add server', onClick: openAdd }} />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SectionSearch
          what="servers"
          placeholder="Label, host, user or client"
          value={search}
          onChange={setSearch}
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
      <SectionList
        items={servers}
        what="servers"
        empty={filtered ? 'No server matches.' : 'No servers yet.'}
      >
        {(list) => <ServerList servers={list} />}
      </SectionList>
      <ServerFormModal opened={adding} onClose={closeAdd} />
    </Stack>
  );
}
