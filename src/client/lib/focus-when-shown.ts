/** How long an action's result may take to be drawn (a refetched list, a loading panel). */
const PATIENCE_MS = 3000;

/**
 * Moves focus to what `find` returns once it is in the page. After an action, the place focus
 * belongs is often drawn a few frames later: a list row the list first scrolls into view, a
 * panel that mounts, a notification. If it has not come within `patienceMs`, `fallback` is
 * asked once instead.
 *
 * Called only right after the person's own action, never on another person's live update. A
 * key press or a click meanwhile means they have moved on: focus is then left where they put it.
 */
export function focusWhenShown(
  find: () => HTMLElement | null | undefined,
  fallback?: () => HTMLElement | null | undefined,
  patienceMs = PATIENCE_MS,
): void {
  const started = performance.now();
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    document.removeEventListener('keydown', stop, true);
    document.removeEventListener('pointerdown', stop, true);
  };
  const step = () => {
    const target = find() ?? (performance.now() - started > patienceMs ? fallback?.() : null);
    if (target) {
      stop();
      target.focus();
    } else if (performance.now() - started > patienceMs) {
      stop();
    } else {
      frame = requestAnimationFrame(step);
    }
  };
  document.addEventListener('keydown', stop, true);
  document.addEventListener('pointerdown', stop, true);
  frame = requestAnimationFrame(step);
}
