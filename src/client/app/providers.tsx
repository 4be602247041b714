import type { ReactNode } from 'react';
import { MantineProvider, localStorageColorSchemeManager } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { ConfirmModals } from '#client/lib/confirm-modal.tsx';
import { queryClient } from './query-client.ts';
import { cssVariablesResolver, theme } from './theme.ts';
import notificationClasses from './notifications.module.css';

const colorSchemeManager = localStorageColorSchemeManager({ key: 'clients-manager-color-scheme' });

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      // Follows the system setting until the user picks one with the header toggle. No inline
      // script sets it before the first paint: the Content-Security-Policy forbids them.
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
    >
      <QueryClientProvider client={queryClient}>
        {/*
          Over the header's middle, which holds nothing: at the bottom they covered the form's
          Save and Cancel.
        */}
        <Notifications
          position="top-center"
          layout="stacked"
          autoClose={4000}
          classNames={notificationClasses}
        />
        <ConfirmModals />
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}
