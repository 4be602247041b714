import { useId, type ReactNode } from 'react';
import { Checkbox, Fieldset, Input, SimpleGrid, Stack } from '@mantine/core';
import { EVENT_KINDS, type ClientEventKind } from '#shared/events.ts';
import { EVENT_FAMILIES, EVENT_LABELS, type EventFamily } from '../webhook-text.ts';

/**
 * The events an endpoint hears about: one group of checkboxes per family (clients, servers,
 * credentials, people), each with a box that takes or leaves the whole family.
 */
export function EventsField({
  value,
  onChange,
  error,
}: {
  value: readonly ClientEventKind[];
  onChange: (events: ClientEventKind[]) => void;
  error?: ReactNode;
}) {
  const id = useId();
  const chosen = new Set(value);
  const set = (kinds: readonly ClientEventKind[], on: boolean) => {
    const next = new Set(chosen);
    for (const kind of kinds) {
      if (on) next.add(kind);
      else next.delete(kind);
    }
    // Always in the log's order, so an unchanged choice compares equal.
    onChange(EVENT_KINDS.filter((kind) => next.has(kind)));
  };

  return (
    <Stack
      gap={6}
      role="group"
      aria-labelledby={`${id}-label`}
      aria-describedby={error ? `${id}-error` : `${id}-description`}
    >
      <Input.Label id={`${id}-label`} labelElement="div" required>
        Events
      </Input.Label>
      <Input.Description id={`${id}-description`}>
        What this address is told about. Reads of secrets are told without the secret.
      </Input.Description>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        {EVENT_FAMILIES.map((family) => (
          <FamilyChoice key={family.name} family={family} chosen={chosen} onSet={set} />
        ))}
      </SimpleGrid>
      {error && <Input.Error id={`${id}-error`}>{error}</Input.Error>}
    </Stack>
  );
}

function FamilyChoice({
  family,
  chosen,
  onSet,
}: {
  family: EventFamily;
  chosen: ReadonlySet<ClientEventKind>;
  onSet: (kinds: readonly ClientEventKind[], on: boolean) => void;
}) {
  const count = family.kinds.filter((kind) => chosen.has(kind)).length;
  const all = count === family.kinds.length;
  return (
    <Fieldset legend={family.name} variant="filled" p="sm">
      <Stack gap={8}>
        <Checkbox
          label={`All ${family.noun} events`}
          checked={all}
          indeterminate={count > 0 && !all}
          onChange={(event) => onSet(family.kinds, event.currentTarget.checked)}
          fw={600}
        />
        {family.kinds.map((kind) => (
          <Checkbox
            key={kind}
            label={EVENT_LABELS[kind]}
            checked={chosen.has(kind)}
            onChange={(event) => onSet([kind], event.currentTarget.checked)}
            pl="md"
          />
        ))}
      </Stack>
    </Fieldset>
  );
}
