import type { ReactNode } from 'react';
import { Box, Center, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { BrandMark } from '#client/components/brand-mark.tsx';
import { usePageTitle } from '#client/components/page-title.ts';

/**
 * The frame of every signed-out screen. The sign-in screen's heading is the app's name; the
 * others show the name as a brand line above their own heading.
 */
export function AuthLayout({
  title,
  showBrand = true,
  children,
}: {
  title: string;
  showBrand?: boolean;
  children: ReactNode;
}) {
  // The sign-in screen's heading is the app's name.
  usePageTitle(showBrand ? title : 'Sign in');
  return (
    // The main landmark; no skip link, as nothing focusable comes before the form.
    <Box
      component="main"
      mih="100dvh"
      bg="var(--mantine-color-gray-light)"
      py={{ base: 'lg', sm: 64 }}
    >
      <Container size={460} px="md">
        <Center mb="lg">
          <Group gap="xs">
            <BrandMark size={36} />
            {showBrand && (
              <Text fw={700} size="lg">
                Clients Manager
              </Text>
            )}
          </Group>
        </Center>
        <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }}>
          <Stack gap="lg">
            <Title order={1} size={showBrand ? 'h3' : 'h2'} ta="center">
              {title}
            </Title>
            {children}
          </Stack>
        </Paper>
      </Container>
    </Box>
  );
}
