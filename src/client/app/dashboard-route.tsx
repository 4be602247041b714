import { DashboardPage } from '#client/features/clients/dashboard-page.tsx';
import { ClientServers } from '#client/features/servers/components/client-servers.tsx';
import { ClientPanelSlotsContext, type ClientPanelSlots } from '#client/lib/client-panel-slots.ts';

const slots: ClientPanelSlots = { OtherServers: ClientServers, Apps: null, OpenIssues: null };

/** The dashboard, its client panel listing the client's other servers from the Servers feature. */
export function DashboardRoute() {
  return (
    <ClientPanelSlotsContext value={slots}>
      <DashboardPage />
    </ClientPanelSlotsContext>
  );
}
