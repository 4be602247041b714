import { Button, Group, Text } from '@mantine/core';

/**
 * Under a save refused because someone saved first: the way on, without closing the form. What
 * the button does to the typed values is said next to it, before it is pressed.
 */
export function LoadSavedVersion({
  onLoad,
  keepsTyped = false,
}: {
  onLoad: () => void;
  /** The form keeps what was typed (a new secret) and only goes over the saved version. */
  keepsTyped?: boolean;
}) {
  return (
    <Group mt="xs" gap="xs">
      <Button size="xs" variant="default" onClick={onLoad}>
        Load the saved version
      </Button>
      <Text size="xs">
        {keepsTyped
          ? 'What you typed stays, and replaces their secret when you save.'
          : 'What you typed here is replaced by it.'}
      </Text>
    </Group>
  );
}
