import { useNavigate } from 'react-router';
import { Group, Select, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCan } from '#client/lib/use-can.ts';
import { useUrlSearch } from '#client/lib/use-url-search.ts';
import { assigneesQuery, issuesQuery } from './api/issue-queries.ts';
import { IssueFormModal } from './components/issue-form.tsx';
import { IssueList, issuePagePath } from './components/issue-list.tsx';
import {
  KIND_FILTERS,
  STATE_FILTERS,
  filterFromParams,
  filterToQuery,
  isNarrowed,
} from './issue-filters.ts';
import { personOptions } from './issue-text.ts';
import { SectionHeading, SectionList, SectionSearch } from '#client/components/section-page.tsx';

const EMPTY_TEXT = {
  open: 'No open issues.',
  resolved: 'No resolved issues.',
  all: 'No issues yet.',
} as const;

/** The Issues section: the open issues of every client (or others), filtered by the API. */
export function IssuesPage() {
  // The filters live in the URL (`?state=&kind=&assignee=&q=`), so a link or Back keeps them.
  const { params, search, setSearch, setParam } = useUrlSearch();
  const filter = filterFromParams(params);
  const issues = useQuery({
    ...issuesQuery(filterToQuery(filter)),
    placeholderData: keepPreviousData,
  });
  const people = useQuery(assigneesQuery());
  const [adding, { open: openAdd, close: closeAdd }] = useDisclosure(false);
  const navigate = useNavigate();
  const mayWrite = useCan('write');

  const assigneeOptions = [
    { value: '', label: 'Anyone' },
    { value: 'me', label: 'Assigned to me' },
    ...personOptions(people.data ?? []),
  ];
  // A person named by the address is kept as a choice while the list of people loads.
  if (!assigneeOptions.some((option) => option.value === filter.assignee)) {
    assigneeOptions.push({ value: filter.assignee, label: 'Someone else' });
  }

  return (
    <Stack gap="lg">
      <SectionHeading title="Issues" add={mayWrite && { label: 'New issue', onClick: openAdd }} />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SectionSearch
          what="issues"
          placeholder="Title, text or client"
          value={search}
          onChange={setSearch}
          // Three shares of the spare width to the search; on a phone it has a row of its own,
          // State and Kind share the next and Assignee takes the last.
          style={{ flex: '3 1 240px' }}
        />
        <Select
          label="State"
          data={STATE_FILTERS.map((option) => ({ ...option }))}
          value={filter.state}
          // Open is the default, kept out of the address.
          onChange={(value) => setParam('state', value === 'open' ? '' : (value ?? ''))}
          allowDeselect={false}
          style={{ flex: '1 1 130px' }}
        />
        <Select
          label="Kind"
          data={KIND_FILTERS.map((option) => ({ ...option }))}
          value={filter.kind}
          onChange={(value) => setParam('kind', value ?? '')}
          allowDeselect={false}
          style={{ flex: '1 1 130px' }}
        />
        <Select
          label="Assignee"
          data={assigneeOptions}
          value={filter.assignee}
          onChange={(value) => setParam('assignee', value ?? '')}
          allowDeselect={false}
          searchable
          nothingFoundMessage="Nobody matches"
          style={{ flex: '1 1 180px' }}
        />
      </Group>
      <SectionList
        items={issues}
        what="issues"
        empty={isNarrowed(filter) ? 'No issue matches.' : EMPTY_TEXT[filter.state]}
      >
        {(list) => <IssueList issues={list} />}
      </SectionList>
      <IssueFormModal
        opened={adding}
        onClose={closeAdd}
        onSaved={(issue) => void navigate(issuePagePath(issue.id))}
      />
    </Stack>
  );
}
