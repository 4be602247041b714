import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Alert, Button, Center, Container, Group, Text } from '@mantine/core';

/**
 * Shown when a screen fails to render or its code cannot be loaded (e.g. a new version was
 * deployed and the old files are gone): say so and offer a reload, never a blank page.
 */
export function RouteErrorPage({ inShell = false }: { inShell?: boolean }) {
  const error = useRouteError();
  console.error(error);
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;
  return (
    <Center mih={inShell ? undefined : '100dvh'} p="md">
      <Container size="sm">
        <Alert color="red" title="Something went wrong" role="alert">
          <Text size="sm">This screen could not be shown. Reloading the page usually helps.</Text>
          {detail && (
            <Text size="xs" c="dimmed" mt="xs">
              {detail}
            </Text>
          )}
          <Group mt="md">
            <Button color="red" variant="light" onClick={() => window.location.reload()}>
              Reload
            </Button>
          </Group>
        </Alert>
      </Container>
    </Center>
  );
}

/** A signed-in screen that failed, inside the shell that stays around it. */
export function ScreenErrorPage() {
  return <RouteErrorPage inShell />;
}
