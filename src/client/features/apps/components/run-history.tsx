import { Link } from 'react-router';
import { Box, NavLink, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { RUNS_KEPT_PER_APP } from '#shared/apps.ts';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { formatDateTime } from '#client/lib/history-text.ts';
import { appRunsQuery } from '../api/app-queries.ts';
import { runFacts } from '../run-look.ts';
import { RunStateBadge } from './run-state-badge.tsx';
import { BareList } from '#client/components/bare-list.tsx';

/** An app's runs, newest first; choosing one shows its log (`?run=` keeps the choice). */
export function RunHistory({ appId, selected }: { appId: string; selected: string | null }) {
  const runs = useQuery(appRunsQuery(appId));
  if (runs.isPending) {
    return <Skeleton height={120} role="status" aria-label="Loading runs" />;
  }
  if (runs.isError) {
    return (
      <ErrorAlert
        title="Could not load the runs"
        error={runs.error}
        onRetry={() => void runs.refetch()}
      />
    );
  }
  if (runs.data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Not deployed yet.
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <BareList gap={2} label="Runs">
        {runs.data.map((run) => (
          <li key={run.id}>
            <NavLink
              component={Link}
              to={`?run=${encodeURIComponent(run.id)}`}
              replace
              active={run.id === selected}
              aria-current={run.id === selected ? 'true' : undefined}
              leftSection={
                <Box w={108}>
                  <RunStateBadge state={run.state} fullWidth />
                </Box>
              }
              label={formatDateTime(run.startedAt)}
              description={[run.startedBy.name, runFacts(run)].filter(Boolean).join(' · ')}
              styles={{ description: { overflowWrap: 'anywhere' } }}
            />
          </li>
        ))}
      </BareList>
      <Text size="xs" c="dimmed">
        {`The last ${RUNS_KEPT_PER_APP} runs are kept.`}
      </Text>
    </Stack>
  );
}
