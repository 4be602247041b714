import type { ReactNode } from 'react';
import { MantineProvider, localStorageColorSchemeManager } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './query-client.ts';
import { theme } from './theme.ts';

const colorSchemeManager = localStorageColorSchemeManager({ key: 'clients-manager-color-scheme' });

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      // Follows the system setting until the user picks one with the header toggle. No inline
      // script sets it before the first paint: the Content-Security-Policy forbids them.
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
    >
      <QueryClientProvider client={queryClient}>
        <ModalsProvider
          modalProps={{ centered: true, closeButtonProps: { 'aria-label': 'Close' } }}
        >
          {/* Bottom right: the top right is where the user menu and Sign out are. */}
          <Notifications position="bottom-right" autoClose={4000} />
          {children}
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
