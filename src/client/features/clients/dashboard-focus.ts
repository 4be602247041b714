import { focusWhenShown } from '#client/lib/focus-when-shown.ts';

/**
 * Where focus goes after the dashboard's actions, so that someone on the keyboard carries on
 * from the thing they just changed instead of from the top of the page. The places are found in
 * the list's and the panel's DOM by what they are (their role and name, a link's address), as
 * the list draws only the rows in view and may show them as a list or a table.
 */
export interface DashboardFocus {
  /** After saving: the client's row; the panel heading on a phone or if the row is not drawn. */
  saved(id: string): void;
  /** After closing the Add form: the + button that opened it. */
  addClosed(): void;
  /** After closing the Edit form: the panel's actions menu, where Edit was. */
  editClosed(): void;
  /** After duplicating: the copy's row, else the original's, else the search box. */
  duplicated(copyId: string, originalId: string): void;
  /** The list's search box: the list's start, after what had focus went away (a deletion). */
  list(): void;
  /** After Undo brought a client back: its row, else the panel heading. */
  restored(id: string): void;
}

/** Matches the dashboard's stylesheet: below this the panel stacks under the list. */
export const STACKED = '(max-width: 74.99em)';

/** The dashboard's two columns carry these `data-dashboard` values. */
export const LIST_COLUMN = 'list';
export const SIDE_COLUMN = 'side';

const list = () => document.querySelector<HTMLElement>(`[data-dashboard="${LIST_COLUMN}"]`);
const side = () => document.querySelector<HTMLElement>(`[data-dashboard="${SIDE_COLUMN}"]`);
const stacked = () => window.matchMedia(STACKED).matches;

export const dashboardFocus: DashboardFocus = (() => {
  const row = (id: string) => {
    const path = `/clients/${encodeURIComponent(id)}`;
    for (const link of list()?.querySelectorAll<HTMLAnchorElement>('a[href]') ?? []) {
      if (new URL(link.href).pathname === path) return link;
    }
    return null;
  };
  const heading = () => side()?.querySelector<HTMLElement>('[data-client-heading]');
  const search = () => list()?.querySelector<HTMLElement>('input[type="search"]');
  // On a phone the panel is under the list and is scrolled into view after an action: focus
  // stays with it rather than pulling the page back up to the row.
  const clientOrRow = (id: string) =>
    stacked() ? focusWhenShown(heading) : focusWhenShown(() => row(id), heading);
  return {
    saved: clientOrRow,
    restored: clientOrRow,
    addClosed: () =>
      focusWhenShown(() => list()?.querySelector<HTMLElement>('button[aria-label="Add client"]')),
    editClosed: () =>
      focusWhenShown(() =>
        side()?.querySelector<HTMLElement>('button[aria-label="Client actions"]'),
      ),
    // The list is refetched before the copy is reported, so its row is drawn within a render
    // or not at all (sorted out of view). A render can take over a second on a loaded machine
    // (CI's 2 cores gave up at 300 ms once), so the wait is a second and a half, not a frame.
    duplicated: (copyId, originalId) =>
      focusWhenShown(
        () => row(copyId),
        () => row(originalId) ?? search(),
        1500,
      ),
    list: () => focusWhenShown(search),
  };
})();
