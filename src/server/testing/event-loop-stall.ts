/**
 * Runs `work` and measures the longest the event loop went without running a timer meanwhile:
 * how long everything else this process serves waited on something that held the thread.
 */
export async function longestStall<T>(
  work: () => Promise<T>,
): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    return { result, stallMs: Math.max(stallMs, performance.now() - last) };
  } finally {
    clearInterval(ticker);
  }
}

/** How long `run` holds this thread: what it would cost everyone if it ran on the event loop. */
export function blockingMs(run: () => void): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}
