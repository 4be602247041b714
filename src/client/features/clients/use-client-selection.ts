import { useCallback, useMemo, useState } from 'react';
import type { ClientSummary } from '#shared/clients.ts';
import { NO_SELECTION, clicked, withAll, withoutGone, type Selection } from './client-selection.ts';

export interface ClientSelection {
  /** The ids selected, for the bulk actions. */
  selectedIds: string[];
  isSelected: (id: string) => boolean;
  /** How many of them the search hides now: they stay selected, and the bar says so. */
  hiddenCount: number;
  toggle: (id: string, on: boolean, shift: boolean) => void;
  selectAllShown: () => void;
  clear: () => void;
}

/**
 * The rows selected in the list or the table. A search does not drop them (the bar counts the
 * ones it hides); a client deleted, here or by someone else, leaves the selection when the list
 * comes back without it.
 */
export function useClientSelection(
  all: readonly ClientSummary[] | undefined,
  shown: readonly ClientSummary[],
): ClientSelection {
  const [selection, setSelection] = useState<Selection>(NO_SELECTION);
  const [listChecked, setListChecked] = useState(all);
  if (all !== listChecked) {
    // Adjusted while rendering, as React recommends for state that follows a prop.
    setListChecked(all);
    if (all !== undefined && selection.ids.size > 0) {
      const ids = new Set(all.map((client) => client.id));
      setSelection((s) => withoutGone(s, (id) => ids.has(id)));
    }
  }
  const selectedIds = useMemo(() => [...selection.ids], [selection.ids]);
  const hiddenCount = useMemo(() => {
    if (selectedIds.length === 0 || shown.length === all?.length) return 0;
    const shownIds = new Set(shown.map((client) => client.id));
    return selectedIds.filter((id) => !shownIds.has(id)).length;
  }, [selectedIds, shown, all]);
  const toggle = useCallback(
    (id: string, on: boolean, shift: boolean) =>
      setSelection((s) =>
        clicked(
          s,
          shown.map((client) => client.id),
          id,
          on,
          shift,
        ),
      ),
    [shown],
  );
  const selectAllShown = useCallback(
    () =>
      setSelection((s) =>
        withAll(
          s,
          shown.map((client) => client.id),
        ),
      ),
    [shown],
  );
  const clear = useCallback(() => setSelection(NO_SELECTION), []);
  const isSelected = useCallback((id: string) => selection.ids.has(id), [selection.ids]);
  return { selectedIds, isSelected, hiddenCount, toggle, selectAllShown, clear };
}
