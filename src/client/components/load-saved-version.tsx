import { Button, Group, Text } from '@mantine/core';

/**
 * Under a save refused because someone saved first: the way on, without closing the form. What
 * the button does to the typed values is said next to it, before it is pressed.
 */
export function LoadSavedVersion({
  of: saved,
  keepsTyped = false,
}: {
  /** The form's `useSavedVersion`: nothing is shown unless its last save was stale. */
  of: { stale: boolean; load: () => Promise<void> };
  /** The form keeps what was typed (a new secret) and only goes over the saved version. */
  keepsTyped?: boolean;
}) {
  if (!saved.stale) return null;
  return (
    <Group mt="xs" gap="xs">
      <Button size="xs" variant="default" onClick={() => void saved.load()}>
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
