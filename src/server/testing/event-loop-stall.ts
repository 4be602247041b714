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

/**
 * The least of `runs` runs' longest stalls, with each run's result: work that holds the thread
 * stalls every run, while a pause of the process itself (a collection, a loaded machine taking
 * the core away) seldom comes in each.
 */
export async function leastStall<T>(
  runs: number,
  work: (run: number) => Promise<T>,
): Promise<{ results: T[]; stallMs: number }> {
  const results: T[] = [];
  let least = Infinity;
  for (let run = 0; run < runs; run += 1) {
    const { result, stallMs } = await longestStall(() => work(run));
    results.push(result);
    least = Math.min(least, stallMs);
  }
  return { results, stallMs: least };
}

/** How long `run` holds this thread: what it would cost everyone if it ran on the event loop. */
export function blockingMs(run: () => void): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}
