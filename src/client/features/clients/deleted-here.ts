/**
 * Ids this tab deleted itself, so the live feed's echo of that delete is not announced again
 * as a change made by someone else.
 */
const deletedHere = new Set<string>();

export function wasDeletedHere(id: string): boolean {
  return deletedHere.has(id);
}

/** Notes ids this tab is deleting, or, with `deleted` false, no longer (failed, or undone). */
export function markDeletedHere(ids: readonly string[], deleted = true): void {
  for (const id of ids) {
    if (deleted) deletedHere.add(id);
    else deletedHere.delete(id);
  }
}
