import { formatSoak, runSoak } from '#server/reliability/soak.ts';
import { parseCommandLine, runCommand } from './run-command.ts';

const USAGE = `Usage: npm run soak -- [--seconds 60] [--warmup 30] [--writers 50] [--subscribers 200] [--postgres]

Starts the real server as a child process on loopback (a fresh SQLite file, or with
--postgres a fresh database on an embedded PostgreSQL server), signs a user up, opens the
live subscribers and runs the writers (creates and updates, one request in flight each):
--warmup seconds, then --seconds measured, the same load throughout. Then it waits for every
subscriber to reach the last event and prints the figures. It passes when no request got a
5xx (or no answer), no subscriber missed or reordered an event, and the server's RSS at the
end of the measured run is within 20% of its RSS at its start (the live heap after a full
collection too). Exits 1 otherwise.`;

async function main(): Promise<number> {
  const { values } = parseCommandLine({
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '30' },
    writers: { type: 'string', default: '50' },
    subscribers: { type: 'string', default: '200' },
    postgres: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const numbers = {
    seconds: Number(values.seconds),
    warmup: Number(values.warmup),
    writers: Number(values.writers),
    subscribers: Number(values.subscribers),
  };
  for (const [name, value] of Object.entries(numbers)) {
    if (!Number.isInteger(value) || value < (name === 'warmup' ? 0 : 1) || value > 3600) {
      console.error(`--${name} must be a whole number up to 3600\n\n${USAGE}`);
      return 2;
    }
  }
  const result = await runSoak({
    ...numbers,
    postgres: values.postgres,
    log: (line) => console.log(line),
  });
  console.log(formatSoak(result));
  return result.passed ? 0 : 1;
}

await runCommand(main, { usage: USAGE });
