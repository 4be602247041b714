import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Loaded into the soak's server only (NODE_OPTIONS=--import …/heap-probe.ts), never in
 * production. On SIGUSR2 it collects all garbage and prints the heap that is still live, the
 * figure a leak would raise: RSS also holds garbage V8 has not collected yet and space it
 * keeps for later, which grows for the first minute or so of a heavy load while V8 sizes its
 * heap to it.
 */
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

process.on('SIGUSR2', () => {
  gc();
  gc();
  const liveKb = Math.round(process.memoryUsage().heapUsed / 1024);
  // One line the soak reads back from the server's output (soak.ts, liveHeapKb).
  process.stderr.write(`heap-probe ${JSON.stringify({ liveKb })}\n`);
});
