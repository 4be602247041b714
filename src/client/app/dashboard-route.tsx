import { lazy, Suspense, type ComponentType } from 'react';
import { Skeleton } from '@mantine/core';
import { DashboardPage } from '#client/features/clients/dashboard-page.tsx';
import { ClientPanelSlotsContext, type ClientPanelSlots } from '#client/lib/client-panel-slots.ts';

type SlotProps = { client: { id: string; name: string; code: string } };

/**
 * A panel slot whose code loads when a client's panel first shows it: the servers', apps' and
 * issues' code and forms are not needed to show the list, and the dashboard's first load stays
 * small.
 */
function loadedOnUse(load: () => Promise<ComponentType<SlotProps>>, label: string) {
  const Slot = lazy(async () => ({ default: await load() }));
  return function LoadedOnUse(props: SlotProps) {
    return (
      <Suspense fallback={<Skeleton height={40} role="status" aria-label={`Loading ${label}`} />}>
        <Slot {...props} />
      </Suspense>
    );
  };
}

const slots: ClientPanelSlots = {
  OtherServers: loadedOnUse(
    async () =>
      (await import('#client/features/servers/components/client-servers.tsx')).ClientServers,
    'servers',
  ),
  Apps: loadedOnUse(
    async () => (await import('#client/features/apps/components/client-apps.tsx')).ClientApps,
    'apps',
  ),
  OpenIssues: loadedOnUse(
    async () => (await import('#client/features/issues/components/open-issues.tsx')).OpenIssues,
    'open issues',
  ),
};

/**
 * The dashboard, its client panel listing the client's other servers (Servers feature), its
 * apps (Apps feature) and its open issues (Issues feature).
 */
export function DashboardRoute() {
  return (
    <ClientPanelSlotsContext value={slots}>
      <DashboardPage />
    </ClientPanelSlotsContext>
  );
}
