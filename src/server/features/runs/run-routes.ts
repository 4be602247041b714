import { eventStreamHead, startEventStream } from '#server/http/event-stream.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  RUN_END_EVENT,
  RUN_LOG_EVENT,
  runIdSchema,
  runLogQuerySchema,
  runSchema,
  type Run,
} from '#shared/apps.ts';
import { apiErrorSchema } from '#shared/api-error.ts';
import type { Db } from '#server/db/database.ts';
import { HttpError } from '#server/http/http-error.ts';
import { refusals } from '#server/http/route-schemas.ts';
import { accessOf, actorOf, requireUser } from '#server/auth/session-guard.ts';
import { canReachClient } from '#server/auth/tag-scope.ts';
import { streamMayGoOn } from '#server/realtime/stream-access.ts';
import type { RunManager } from './run-manager.ts';
import { presentRun, presentRunLogLine } from './run-presenter.ts';
import { spelledOutLog } from './terminal-text.ts';
import { STREAM_KEEP_ALIVE_MS } from '#server/realtime/event-hub.ts';

const params = z.object({ id: runIdSchema });
const PAGE = 1000;
/** How often a stream of a run owned by another instance looks for new pieces (PostgreSQL). */
const POLL_MS = 1000;

function notFound(): HttpError {
  return new HttpError(404, 'No run with that id: it may have been removed');
}

/** `Last-Event-ID` as the browser sends it on reconnecting: the last piece's seq. */
function lastEventIdOf(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const text = String(value);
  if (!/^\d{1,15}$/.test(text)) {
    throw new HttpError(400, 'Invalid Last-Event-ID: must be a sequence number');
  }
  return Number(text);
}

const logStream = {
  description: `Server-Sent Events: each piece of the log as \`id: <seq>\`, \`event: ${RUN_LOG_EVENT}\`, \`data: <piece as JSON>\`, then \`event: ${RUN_END_EVENT}\` with the run once it has ended, and the stream closes (close the EventSource then, or it reconnects). A piece is one line of one stream with its newline (the output's last line, or a line longer than 16 KB, may come without one): the pieces joined in order are the log.`,
  content: { 'text/event-stream': { schema: z.string() } },
};

/** The log streams open on this instance: ended when the app closes, as the event hub's are. */
export class RunStreams {
  readonly #ends = new Set<() => void>();

  add(end: () => void): () => void {
    this.#ends.add(end);
    return () => this.#ends.delete(end);
  }

  close(): void {
    for (const end of [...this.#ends]) end();
  }
}

/**
 * A run, its log (live as Server-Sent Events, or whole as a text file) and its cancel. A run
 * of a client outside the person's tags is answered as one that does not exist.
 */
export function registerRunRoutes(
  app: FastifyInstance,
  deps: { db: Db; runs: RunManager; streams: RunStreams },
): void {
  const { runs, streams } = deps;
  const db = deps.db.kysely;
  const api = app.withTypeProvider<ZodTypeProvider>();

  async function readRun(id: string): Promise<Run | undefined> {
    const row = await db.selectFrom('run').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? presentRun(row) : undefined;
  }

  async function visibleRun(request: FastifyRequest, id: string): Promise<Run> {
    const run = await readRun(id);
    if (!run || !(await canReachClient(db, accessOf(requireUser(request)), run.clientId))) {
      throw notFound();
    }
    return run;
  }

  api.get(
    '/api/runs/:id',
    {
      schema: {
        summary: 'One run of an app',
        tags: ['apps'],
        params,
        response: { 200: runSchema, ...refusals },
      },
    },
    async (request) => visibleRun(request, request.params.id),
  );

  api.get(
    '/api/runs/:id/log',
    {
      schema: {
        summary: "A run's log, live (Server-Sent Events); ends with the run",
        tags: ['apps'],
        params,
        querystring: runLogQuerySchema,
        headers: z.looseObject({
          'last-event-id': z.string().optional().describe('The last piece seen (its seq)'),
        }),
        response: { 200: logStream, ...refusals },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const first = await visibleRun(request, id);
      if (request.method === 'HEAD') return eventStreamHead(reply);
      const access = accessOf(requireUser(request));
      const streamId = request.sessionId ?? '';
      let lastSent = lastEventIdOf(request.headers['last-event-id']) ?? request.query.after ?? 0;

      const res = startEventStream(reply);

      let closed = false;
      let pumping: Promise<void> | null = null;
      let again = false;
      const cleanups: (() => void)[] = [];
      const end = () => {
        if (closed) return;
        closed = true;
        for (const cleanup of cleanups) cleanup();
        res.end();
      };
      request.raw.on('close', end);
      cleanups.push(streams.add(end));

      const write = async (chunk: string) => {
        if (closed) return;
        if (!res.write(chunk)) {
          // Whichever comes first; the other's listener goes too, or a long log left one
          // behind on the response for every wait.
          await new Promise<void>((resolve) => {
            const go = () => {
              res.off('drain', go);
              res.off('close', go);
              resolve();
            };
            res.once('drain', go);
            res.once('close', go);
          });
        }
      };

      // The table is the one source: each wake-up sends what is new after the last piece sent,
      // and once the run has ended (its last pieces commit before its end), the run itself.
      const pumpOnce = async () => {
        // Checked again at each wake-up, not only at the open: a person signed out, disabled or
        // given other tags, or whose client left their tags, gets no further line.
        const mayGoOn =
          (await streamMayGoOn(db, deps.db.dialect, streamId, access)) &&
          (await canReachClient(db, access, first.clientId));
        if (!mayGoOn) {
          end();
          return;
        }
        const row = await db.selectFrom('run').selectAll().where('id', '=', id).executeTakeFirst();
        for (;;) {
          const pieces = await db
            .selectFrom('runLog')
            .selectAll()
            .where('runId', '=', id)
            .where('seq', '>', lastSent)
            .orderBy('seq')
            .limit(PAGE)
            .execute();
          for (const piece of pieces) {
            const line = presentRunLogLine(piece);
            await write(
              `id: ${line.seq}\nevent: ${RUN_LOG_EVENT}\ndata: ${JSON.stringify(line)}\n\n`,
            );
            lastSent = line.seq;
          }
          if (pieces.length < PAGE || closed) break;
        }
        if (!row || row.state !== 'running') {
          const run = row ? presentRun(row) : { ...first, state: 'interrupted' as const };
          await write(`event: ${RUN_END_EVENT}\ndata: ${JSON.stringify(run)}\n\n`);
          end();
        }
      };
      const pump = () => {
        if (closed) return;
        if (pumping) {
          again = true;
          return;
        }
        pumping = (async () => {
          try {
            do {
              again = false;
              await pumpOnce();
            } while (again && !closed);
          } catch (error) {
            request.log.warn({ err: error, runId: id }, 'run log stream could not read; ending it');
            end();
          } finally {
            pumping = null;
          }
        })();
      };

      cleanups.push(runs.onChange(id, pump));
      // On PostgreSQL the run may be another instance's, whose writes do not wake this one:
      // look at the table every second while the stream is open (it closes when the run ends).
      // On SQLite one instance writes the file, and its own wake-ups are enough.
      if (deps.db.dialect === 'postgres') {
        const poll = setInterval(pump, POLL_MS);
        cleanups.push(() => clearInterval(poll));
      }
      const keepAlive = setInterval(() => void write(': keep-alive\n\n'), STREAM_KEEP_ALIVE_MS);
      cleanups.push(() => clearInterval(keepAlive));
      pump();
    },
  );

  api.get(
    '/api/runs/:id/log.txt',
    {
      schema: {
        summary: "A run's whole log as a text file (as stored so far)",
        tags: ['apps'],
        params,
        response: {
          200: {
            description: 'The log as plain text, stdout and stderr in the order written',
            content: { 'text/plain': { schema: z.string() } },
          },
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const run = await visibleRun(request, request.params.id);
      const pieces = await db
        .selectFrom('runLog')
        .select('text')
        .where('runId', '=', run.id)
        .orderBy('seq')
        .execute();
      const stamp = run.startedAt.slice(0, 19).replaceAll(':', '-');
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="run-${stamp}-${run.id}.txt"`)
        .send(spelledOutLog(pieces.map((piece) => piece.text).join('')));
    },
  );

  api.post(
    '/api/runs/:id/cancel',
    {
      schema: {
        summary: 'Ask a running run to stop (TERM, then the connection is closed)',
        tags: ['apps'],
        params,
        response: {
          200: runSchema,
          ...refusals,
          409: apiErrorSchema.describe('The run has ended already.'),
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      await visibleRun(request, request.params.id);
      const outcome = await runs.cancel(request.params.id, actorOf(user));
      if (outcome.status === 'not_found') throw notFound();
      if (outcome.status === 'refused') throw new HttpError(409, outcome.message);
      return outcome.run;
    },
  );
}
