import { createContext, useContext, type ComponentType } from 'react';

/**
 * What other features add to a client's panel, handed down by the app (a feature imports no
 * other feature): the list of the client's other servers, with a way to add one.
 */
export interface ClientPanelSlots {
  OtherServers: ComponentType<{ client: { id: string; name: string; code: string } }> | null;
}

export const ClientPanelSlotsContext = createContext<ClientPanelSlots>({ OtherServers: null });

export function useClientPanelSlots(): ClientPanelSlots {
  return useContext(ClientPanelSlotsContext);
}
