import { Checkbox } from '@mantine/core';
import type { ClientSummary } from '#shared/clients.ts';
import { clientTitle } from '../client-title.ts';
import type { ClientSelection } from '../use-client-selection.ts';

/** A row's selection box; Shift-click selects the range from the last box clicked. */
export function RowCheckbox({
  client,
  selection,
}: {
  client: ClientSummary;
  selection: Pick<ClientSelection, 'isSelected' | 'toggle'>;
}) {
  return (
    <Checkbox
      size="xs"
      aria-label={`Select ${clientTitle(client)}`}
      checked={selection.isSelected(client.id)}
      // The click carries Shift; by then the box shows its new state.
      onChange={() => {}}
      onClick={(event) => selection.toggle(client.id, event.currentTarget.checked, event.shiftKey)}
    />
  );
}
