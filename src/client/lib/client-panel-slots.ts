import { createContext, useContext, type ComponentType } from 'react';

type ClientSlot = ComponentType<{ client: { id: string; name: string; code: string } }> | null;

/**
 * What other features add to a client's panel, handed down by the app (a feature imports no
 * other feature): the client's other servers with a way to add one, its apps with their last
 * deploy, and its open issues.
 */
export interface ClientPanelSlots {
  OtherServers: ClientSlot;
  Apps: ClientSlot;
  OpenIssues: ClientSlot;
}

export const ClientPanelSlotsContext = createContext<ClientPanelSlots>({
  OtherServers: null,
  Apps: null,
  OpenIssues: null,
});

export function useClientPanelSlots(): ClientPanelSlots {
  return useContext(ClientPanelSlotsContext);
}
