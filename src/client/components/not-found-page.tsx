import { Link } from 'react-router';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { BrandMark } from './brand-mark.tsx';
import { usePageTitle } from './page-title.ts';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <Center component="main" mih="100dvh" p="md">
      <Stack align="center" gap="md" maw={420} ta="center">
        <BrandMark size={40} />
        <Title order={1} size="h2">
          Page not found
        </Title>
        <Text c="dimmed">
          There is nothing at this address. It may have moved, or the link is wrong.
        </Text>
        <Button component={Link} to="/">
          Go to the home page
        </Button>
      </Stack>
    </Center>
  );
}
