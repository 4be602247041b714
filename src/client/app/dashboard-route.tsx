import { ClientApps } from '#client/features/apps/components/client-apps.tsx';
import { DashboardPage } from '#client/features/clients/dashboard-page.tsx';
import { ClientServers } from '#client/features/servers/components/client-servers.tsx';
import { ClientPanelSlotsContext, type ClientPanelSlots } from '#client/lib/client-panel-slots.ts';

const slots: ClientPanelSlots = { OtherServers: ClientServers, Apps: ClientApps, OpenIssues: null };

/**
 * The dashboard, its client panel listing the client's other servers (Servers feature) and its
 * apps (Apps feature).
 */
export function DashboardRoute() {
  return (
    <ClientPanelSlotsContext value={slots}>
      <DashboardPage />
    </ClientPanelSlotsContext>
  );
}
