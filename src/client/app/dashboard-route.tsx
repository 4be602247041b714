import { ClientApps } from '#client/features/apps/components/client-apps.tsx';
import { DashboardPage } from '#client/features/clients/dashboard-page.tsx';
import { ClientServers } from '#client/features/servers/components/client-servers.tsx';
import { OpenIssues } from '#client/features/issues/components/open-issues.tsx';
import { ClientPanelSlotsContext, type ClientPanelSlots } from '#client/lib/client-panel-slots.ts';

const slots: ClientPanelSlots = { OtherServers: ClientServers, Apps: ClientApps, OpenIssues };

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
