/**
 * The rows picked for acting on several clients at once. `anchor` is the last box clicked
 * without Shift: a Shift-click sets every row between it and the one clicked, in the order
 * shown, to the clicked row's new state.
 */
export interface Selection {
  readonly ids: ReadonlySet<string>;
  readonly anchor: string | null;
}

export const NO_SELECTION: Selection = { ids: new Set(), anchor: null };

/** A click on the box of `id` (its new state `on`), with or without Shift. */
export function clicked(
  selection: Selection,
  shownIds: readonly string[],
  id: string,
  on: boolean,
  shift: boolean,
): Selection {
  const ids = new Set(selection.ids);
  const from = shift && selection.anchor !== null ? shownIds.indexOf(selection.anchor) : -1;
  const to = shownIds.indexOf(id);
  if (from < 0 || to < 0) {
    if (on) ids.add(id);
    else ids.delete(id);
    return { ids, anchor: id };
  }
  for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
    if (on) ids.add(shownIds[i]!);
    else ids.delete(shownIds[i]!);
  }
  // The anchor stays, so a second Shift-click moves the end of the same range.
  return { ids, anchor: selection.anchor };
}

/** Every row shown added to what is selected (Ctrl/Cmd-A). */
export function withAll(selection: Selection, shownIds: readonly string[]): Selection {
  return { ids: new Set([...selection.ids, ...shownIds]), anchor: selection.anchor };
}

/** Without the clients that are gone (deleted here or elsewhere); the same object if none. */
export function withoutGone(selection: Selection, exists: (id: string) => boolean): Selection {
  if ([...selection.ids].every(exists)) return selection;
  const ids = new Set([...selection.ids].filter(exists));
  const anchor = selection.anchor !== null && exists(selection.anchor) ? selection.anchor : null;
  return { ids, anchor };
}
