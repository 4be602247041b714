import {
  Badge,
  Button,
  Group,
  List,
  Popover,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Person } from '#shared/people-admin.ts';
import {
  ROLE_LABELS,
  deviceText,
  devicesText,
  lastSignInText,
  secondFactorText,
  tagsText,
} from '../people-text.ts';
import { PersonActions } from './person-actions.tsx';
import { CardList } from '#client/components/card-list.tsx';

const wrap = { overflowWrap: 'anywhere' } as const;

interface ListProps {
  people: readonly Person[];
  meId: string;
  onEditAccess: (person: Person) => void;
  onProblem: (message: string | null) => void;
}

/** Everyone: a table on a wide screen, one card each on a phone. */
export function PersonList(props: ListProps) {
  const wide = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });
  return wide ? <PersonTable {...props} /> : <PersonCards {...props} />;
}

function Who({ person, meId }: { person: Person; meId: string }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600} style={wrap}>
        {person.name.trim() || person.email}
        {person.id === meId ? ' (you)' : ''}
      </Text>
      {person.name.trim() && (
        <Text size="xs" c="dimmed" style={wrap}>
          {person.email}
        </Text>
      )}
    </Stack>
  );
}

/** Words rather than a coloured badge: white on Mantine's green or red is too faint to read. */
function State({ person }: { person: Person }) {
  if (person.disabled) {
    return (
      <Text span size="sm" fw={700} c="var(--mantine-color-error)">
        Disabled
      </Text>
    );
  }
  if (!person.emailVerified) {
    return (
      <Text span size="sm" c="dimmed">
        Not verified
      </Text>
    );
  }
  return (
    <Text span size="sm">
      Active
    </Text>
  );
}

/** The device count; the list of them opens from it. */
function Devices({ person }: { person: Person }) {
  if (person.devices.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <Popover width={320} position="bottom-start" withArrow shadow="md">
      <Popover.Target>
        <Button
          variant="subtle"
          size="compact-sm"
          aria-label={`${devicesText(person.devices)} of ${person.email}`}
        >
          {devicesText(person.devices)}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <List size="xs" spacing={4}>
          {person.devices.map((device) => (
            <List.Item key={device.id} style={wrap}>
              {deviceText(device)}
            </List.Item>
          ))}
        </List>
      </Popover.Dropdown>
    </Popover>
  );
}

function PersonTable({ people, meId, onEditAccess, onProblem }: ListProps) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="People">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Person</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Tags</Table.Th>
            <Table.Th>Second factor</Table.Th>
            <Table.Th>Last sign-in</Table.Th>
            <Table.Th>Devices</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {people.map((person) => (
            <Table.Tr key={person.id}>
              <Table.Td>
                <Who person={person} meId={meId} />
              </Table.Td>
              <Table.Td>{ROLE_LABELS[person.role]}</Table.Td>
              <Table.Td style={wrap}>{tagsText(person.tags)}</Table.Td>
              <Table.Td>{secondFactorText(person)}</Table.Td>
              <Table.Td>{lastSignInText(person)}</Table.Td>
              <Table.Td>
                <Devices person={person} />
              </Table.Td>
              <Table.Td>
                <State person={person} />
              </Table.Td>
              <Table.Td>
                <PersonActions
                  person={person}
                  onEditAccess={() => onEditAccess(person)}
                  onProblem={onProblem}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function PersonCards({ people, meId, onEditAccess, onProblem }: ListProps) {
  return (
    <CardList label="People" items={people} keyOf={(person) => person.id}>
      {(person) => (
        <Stack gap={6}>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Who person={person} meId={meId} />
            <PersonActions
              person={person}
              onEditAccess={() => onEditAccess(person)}
              onProblem={onProblem}
            />
          </Group>
          <Group gap="xs">
            <Badge variant="light">{ROLE_LABELS[person.role]}</Badge>
            <State person={person} />
          </Group>
          <Text size="sm" style={wrap}>
            {`Tags: ${tagsText(person.tags)}`}
          </Text>
          <Text size="xs" c="dimmed">
            {`Second factor: ${secondFactorText(person)} · Last sign-in: ${lastSignInText(person)}`}
          </Text>
          <Group gap={4}>
            <Text size="xs" c="dimmed">
              Devices:
            </Text>
            <Devices person={person} />
          </Group>
        </Stack>
      )}
    </CardList>
  );
}
