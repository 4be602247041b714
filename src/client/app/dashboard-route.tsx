import { DashboardPage } from '#client/features/clients/dashboard-page.tsx';
import { ClientServers } from '#client/features/servers/components/client-servers.tsx';
import { OpenIssues } from '#client/features/issues/components/open-issues.tsx';
import { ClientPanelSlotsContext, type ClientPanelSlots } from '#client/lib/client-panel-slots.ts';

const slots: ClientPanelSlots = { OtherServers: ClientServers, Apps: null, OpenIssues };

/**
 * The dashboard, its client panel listing the client's other servers from the Servers feature
 * and its open issues from the Issues feature.
 */
export function DashboardRoute() {
  return (
    <ClientPanelSlotsContext value={slots}>
      <DashboardPage />
    </ClientPanelSlotsContext>
  );
}
