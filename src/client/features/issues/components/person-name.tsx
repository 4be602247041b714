import { Text } from '@mantine/core';
import { isSystem } from '../issue-text.ts';

/** A person's name, or "system" in italics for what a check or a run did by itself. */
export function PersonName({ person }: { person: { id: string | null; name: string } }) {
  if (!isSystem(person)) return <>{person.name}</>;
  return (
    <Text span inherit fs="italic">
      system
    </Text>
  );
}
