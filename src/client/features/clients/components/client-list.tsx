import { Link } from 'react-router';
import {
  ActionIcon,
  Box,
  Group,
  NavLink,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { PlusIcon } from '#client/components/icons.tsx';
import { clientsQuery } from '../api/client-queries.ts';
import { clientTitle } from '../client-title.ts';
import classes from './client-list.module.css';

export function ClientList({
  selectedId,
  onAdd,
  onSelect,
}: {
  selectedId: string | undefined;
  onAdd: () => void;
  /** Called for every click on a row, including the selected one (it closes the form). */
  onSelect: () => void;
}) {
  const clients = useQuery(clientsQuery());

  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={1} size="h3">
          Clients
        </Title>
        <Tooltip label="Add client">
          <ActionIcon
            variant="filled"
            size="lg"
            radius="xl"
            aria-label="Add client"
            onClick={onAdd}
          >
            <PlusIcon />
          </ActionIcon>
        </Tooltip>
      </Group>

      {clients.isPending ? (
        <Stack gap="xs" role="status" aria-label="Loading clients">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={52} radius="sm" />
          ))}
        </Stack>
      ) : clients.isError ? (
        <ErrorAlert
          title="Could not load the clients"
          error={clients.error}
          onRetry={() => void clients.refetch()}
        />
      ) : clients.data.length === 0 ? (
        <Text c="dimmed" py="xl" ta="center">
          No clients yet. Add the first with +.
        </Text>
      ) : (
        <nav aria-label="Clients">
          <Box component="ol" className={classes.list}>
            {clients.data.map((client, index) => {
              const selected = client.id === selectedId;
              return (
                <li key={client.id}>
                  <NavLink
                    component={Link}
                    to={`/clients/${encodeURIComponent(client.id)}`}
                    onClick={onSelect}
                    active={selected}
                    aria-current={selected ? 'true' : undefined}
                    variant="light"
                    leftSection={
                      <Text span c="dimmed" size="sm" className={classes.number}>
                        {index + 1}.
                      </Text>
                    }
                    label={clientTitle(client)}
                    description={client.description || undefined}
                    classNames={{ label: classes.label, description: classes.description }}
                  />
                </li>
              );
            })}
          </Box>
        </nav>
      )}
    </Paper>
  );
}
