import { Alert, Button, Group, Text } from '@mantine/core';
import { errorMessage } from '#client/lib/api-client.ts';

/** A failed load, said plainly, with a way to try again. */
export function ErrorAlert({
  title = 'Could not load this',
  error,
  onRetry,
}: {
  title?: string;
  error: unknown;
  onRetry?: () => void;
}) {
  return (
    <Alert color="red" title={title} role="alert">
      <Text size="sm">{errorMessage(error)}</Text>
      {onRetry && (
        <Group mt="sm">
          <Button size="xs" variant="light" color="red" onClick={onRetry}>
            Try again
          </Button>
        </Group>
      )}
    </Alert>
  );
}
