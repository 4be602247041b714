import { Button, Group, Text } from '@mantine/core';

/**
 * Under a save refused because someone saved first: the way on, without closing the form. What
 * the button does to the typed values is said next to it, before it is pressed.
 */
export function LoadSavedVersion({ onLoad }: { onLoad: () => void }) {
  return (
    <Group mt="xs" gap="xs">
      <Button size="xs" variant="default" onClick={onLoad}>
        Load the saved version
      </Button>
      <Text size="xs">What you typed here is replaced by it.</Text>
    </Group>
  );
}
