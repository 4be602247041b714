import { EventEmitter } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { RUNS_KEPT_PER_APP, type Run, type RunStart, type RunState } from '#shared/apps.ts';
import { RUN_STATE_FIELD_PREFIX, type Actor } from '#shared/events.ts';
import type { Db } from '#server/db/database.ts';
import type { Database } from '#server/db/schema.ts';
import { toStringList } from '#server/db/codec.ts';
import { newRecordId } from '#server/db/record-id.ts';
import { fromBool } from '#server/db/codec.ts';
import type { SecretBox } from '#server/secrets.ts';
import { appendEvents } from '#server/realtime/event-log.ts';
import {
  runRemoteCommand,
  type RemoteCommand,
  type RemoteResult,
} from '#server/ssh/remote-command.ts';
import {
  CREDENTIAL_SECRET_COLUMNS,
  joinedSshCredential,
} from '../credentials/credential-secrets.ts';
import { clientSecrets } from '../credentials/client-secrets.ts';
import type { DeployTokens } from '../account/deploy-tokens.ts';
import { buildCommands, commandValueProblem } from '../clients/deploy-command.ts';
import { shellQuote } from '../clients/shell-quote.ts';
import { runDirectory } from '../apps/app-presenter.ts';
import {
  SYSTEM_ACTOR,
  openProblem,
  resolveProblems,
  runProblemKey,
} from '../issues/problem-issues.ts';
import { isUniqueViolation } from '#server/db/unique-violation.ts';
import { keepingRows, lockingRows } from '#server/db/row-locks.ts';
import { Masker } from './masker.ts';
import { RunLogWriter } from './run-log-writer.ts';
import { presentRun } from './run-presenter.ts';
import { startedRunRow } from './run-rows.ts';

export interface RunTimings {
  /** How often a running run's row is touched (and cancel requests read); default 10 s. */
  heartbeatMs?: number;
  /**
   * After a cancel's TERM, how long before KILL, and again before the connection is closed;
   * default 2 s.
   */
  cancelGraceMs?: number;
  /** How long the SSH handshake and login may take, and then the command's start; default 10 s. */
  connectTimeoutMs?: number;
}

const DEFAULT_TIMINGS = { heartbeatMs: 10_000, cancelGraceMs: 2_000, connectTimeoutMs: 10_000 };
/** A run whose heartbeat is older than this many intervals has lost its instance. */
const STALE_HEARTBEATS = 3;

export type StartOutcome =
  | { status: 'started'; run: Run }
  | { status: 'not_found' }
  | { status: 'refused'; message: string };

export type CancelOutcome =
  { status: 'done'; run: Run } | { status: 'not_found' } | { status: 'refused'; message: string };

interface ActiveRun {
  id: string;
  appId: string;
  appName: string;
  clientId: string;
  serverId: string;
  startedAt: number;
  startedByName: string;
  remote: RemoteCommand;
  log: RunLogWriter;
  /**
   * Also for why it failed: a server's own words (its DISCONNECT's description) are part of
   * the reason, and a server that saw the password or the token can say them.
   */
  masker: Masker;
  cancelledBy: string | null;
  /** The app is closing: the run ends 'interrupted'. */
  closing: boolean;
  finished: Promise<void>;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** "2026-11-26 14:33 UTC": when a run started, in a refusal's words. */
function when(at: string | number | Date): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Runs apps' commands over SSH and keeps their runs' rows, logs and events: start (one run per
 * app at a time, by a partial unique index), live log (masked, stored in batches, capped),
 * cancel, end (with the problem issue a failure opens and a success resolves), a heartbeat
 * while running, and the sweep that marks runs a dead instance left 'running' as interrupted.
 *
 * The owning instance is the one that started the run: it alone holds the SSH connection. On
 * PostgreSQL a cancel asked on another instance is a flag on the row that the owner reads at its
 * next heartbeat, and a run whose owner stopped heartbeating is swept by any live instance.
 */
export class RunManager {
  readonly #db: Db;
  readonly #box: SecretBox;
  readonly #tokens: DeployTokens;
  readonly #defaultCommand: string;
  readonly #onCommitted: () => void;
  readonly #log: FastifyBaseLogger;
  readonly #timings: Required<RunTimings>;
  readonly #active = new Map<string, ActiveRun>();
  /** Wakes this instance's log streams of a run: its id is the event name. */
  readonly #wakeups = new EventEmitter();
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;
  #closed = false;
  /** Aborted by close(): a run waiting to record its end stops waiting. */
  readonly #closing = new AbortController();
  /**
   * Heartbeats in a row that reached the database. After an outage the other instances' runs
   * missed their heartbeats for the same reason as this one: the sweep waits until they have
   * had as many as a run may miss (STALE_HEARTBEATS), or it would stop deploys that are fine.
   */
  #steadyTicks = STALE_HEARTBEATS;

  constructor(deps: {
    db: Db;
    box: SecretBox;
    tokens: DeployTokens;
    defaultCommand: string;
    onCommitted: () => void;
    log: FastifyBaseLogger;
    timings?: RunTimings;
  }) {
    this.#db = deps.db;
    this.#box = deps.box;
    this.#tokens = deps.tokens;
    this.#defaultCommand = deps.defaultCommand;
    this.#onCommitted = deps.onCommitted;
    this.#log = deps.log;
    this.#timings = { ...DEFAULT_TIMINGS, ...deps.timings };
    this.#wakeups.setMaxListeners(0);
  }

  get heartbeatMs(): number {
    return this.#timings.heartbeatMs;
  }

  /**
   * Sweeps the runs left 'running' by a process that died (on SQLite every one: one instance
   * uses a file; on PostgreSQL those whose heartbeat is stale), then starts the heartbeat.
   */
  async open(): Promise<void> {
    await this.#sweep();
    this.#timer = setInterval(() => void this.#tick(), this.#timings.heartbeatMs);
    this.#timer.unref();
  }

  /** Calls `listener` whenever the run's log or state changed on this instance. */
  onChange(runId: string, listener: () => void): () => void {
    this.#wakeups.on(runId, listener);
    return () => this.#wakeups.off(runId, listener);
  }

  #wake(runId: string): void {
    this.#wakeups.emit(runId);
  }

  /**
   * Starts a run of the app as `actor` (a person, whose access token the command carries).
   * `confirmed` is what their Deploy dialog showed (the app's version, its server's host and
   * the directory): a run goes only where they read it would.
   */
  async startRun(
    appId: string,
    actor: Actor & { id: string },
    confirmed: NonNullable<RunStart> = {},
  ): Promise<StartOutcome> {
    if (this.#closed) return { status: 'refused', message: 'The server is stopping: try again' };
    const app = await this.#db.kysely
      .selectFrom('app')
      .innerJoin('client', 'client.id', 'app.clientId')
      .leftJoin('server', 'server.id', 'app.serverId')
      .leftJoin('credential', 'credential.id', 'server.credentialId')
      .select([
        'app.id',
        'app.name',
        'app.clientId',
        'app.serverId',
        'app.directory',
        'app.command',
        'app.version',
        'client.code as clientCode',
        'client.tags as clientTags',
        'server.label as serverLabel',
        'server.host as serverHost',
        'server.port as serverPort',
        'server.username as serverUsername',
        'server.uiDir as serverUiDir',
        'server.checkStatus as serverStatus',
        'server.hostKeyAlgorithm',
        'server.hostKeyFingerprint',
        'credential.kind as credentialKind',
        ...CREDENTIAL_SECRET_COLUMNS,
      ])
      .where('app.id', '=', appId)
      .executeTakeFirst();
    if (!app) return { status: 'not_found' };
    const refuse = (message: string): StartOutcome => ({ status: 'refused', message });
    if (confirmed.version !== undefined && Number(app.version) !== confirmed.version) {
      return refuse(
        'The app was changed since you confirmed it: read its command again, then deploy',
      );
    }
    // What the dialog showed as effectiveDirectory (app-presenter.ts), by the same rule.
    const directory = runDirectory(app);
    if (
      (confirmed.host !== undefined && confirmed.host !== app.serverHost) ||
      (confirmed.directory !== undefined && confirmed.directory !== directory)
    ) {
      return refuse(
        "The app's server was changed since you confirmed it: read where it runs again, then deploy",
      );
    }
    if (app.serverId === null || app.serverLabel === null) {
      return refuse("This app has no server: choose one of its client's servers first");
    }
    if (!app.serverHost) return refuse('Its server has no host: add one to the server first');
    const credential = joinedSshCredential(this.#box, app);
    if (!credential) {
      return refuse('Its server has no SSH key or password credential: give it one first');
    }
    if (app.serverStatus === 'host_key_changed') {
      return refuse(
        "The server's host key changed: if the change is expected, accept the new key on the server's page first",
      );
    }
    if (app.hostKeyAlgorithm === null || app.hostKeyFingerprint === null) {
      return refuse('Check the server first so its host key is pinned');
    }
    const accessToken = await this.#tokens.read(actor.id);
    // Quoted into `cd -- …` below, after the run is recorded: checked before, so a value stored
    // before the rules is refused with the reason, not thrown mid-start.
    const directoryProblem = directory === '' ? null : commandValueProblem(directory);
    if (directoryProblem !== null) {
      return refuse(
        `The directory it runs in (the app's, or its server's UI directory) ${directoryProblem}`,
      );
    }
    const [deploy] = buildCommands(app.command ?? this.#defaultCommand, {
      accessToken,
      tags: toStringList(app.clientTags),
      server: {
        label: app.serverLabel,
        host: app.serverHost,
        port: Number(app.serverPort),
        username: app.serverUsername ?? '',
        uiDir: directory,
      },
      code: app.clientCode,
    });
    if (!deploy?.command) return refuse(deploy?.missing ?? 'No command to run');
    const masker = new Masker([
      accessToken,
      ...(await clientSecrets(this.#db, this.#box, app.clientId)),
    ]);
    const shown = masker.mask(deploy.command);

    const id = newRecordId();
    const at = new Date().toISOString();
    let committed: Run | string;
    try {
      committed = await this.#db.kysely.transaction().execute(async (trx) => {
        const changed = await this.#changedSince(trx, appId, app);
        if (changed) return changed;
        const running = await runningOf(trx, appId);
        if (running) return running;
        const row = startedRunRow(
          this.#db.dialect,
          {
            id,
            appId,
            clientId: app.clientId,
            serverId: app.serverId,
            command: shown,
            startedBy: actor,
          },
          at,
        );
        await trx.insertInto('run').values(row).execute();
        const old = await trx
          .selectFrom('run')
          .select('id')
          .where('appId', '=', appId)
          .orderBy('startedAt', 'desc')
          .orderBy('id', 'desc')
          .offset(RUNS_KEPT_PER_APP)
          .limit(1_000_000)
          .execute();
        const oldIds = old.map((r) => r.id);
        if (oldIds.length > 0) {
          await trx.deleteFrom('runLog').where('runId', 'in', oldIds).execute();
          await trx.deleteFrom('run').where('id', 'in', oldIds).execute();
        }
        await appendEvents(trx, this.#db.dialect, [
          {
            kind: 'run.started',
            clientId: app.clientId,
            appId,
            runId: id,
            serverId: app.serverId!,
            actor,
            at,
            fields: [],
          },
        ]);
        return presentRun({ ...row, logTruncated: false });
      });
    } catch (error) {
      // Another instance started one between the look and the insert.
      if (!isUniqueViolation(error)) throw error;
      committed = (await runningOf(this.#db.kysely, appId)) ?? 'Someone is running this app';
    }
    if (typeof committed === 'string') return refuse(committed);
    this.#onCommitted();

    const log = new RunLogWriter(this.#db, id, { log: this.#log, onWritten: () => this.#wake(id) });
    const out = masker.stream();
    const err = masker.stream();
    log.system(
      `Connecting to ${app.serverUsername ? `${app.serverUsername}@` : ''}${app.serverHost}:${app.serverPort} (${app.serverLabel})`,
    );
    if (directory !== '') log.system(`In ${masker.mask(directory)}`);
    log.system(`$ ${shown}`);
    const remote = runRemoteCommand(
      {
        host: app.serverHost,
        port: Number(app.serverPort),
        username: app.serverUsername ?? '',
        credential,
        pinned: { algorithm: app.hostKeyAlgorithm, fingerprint: app.hostKeyFingerprint },
      },
      inDirectory(directory, deploy.command),
      {
        onOutput: (stream, chunk) => {
          // Past the log's cap nothing more is kept: masking what is thrown away would only
          // hold the server's thread for as long as the command prints.
          if (log.truncated) return;
          for (const line of (stream === 'out' ? out : err).push(chunk)) log.output(stream, line);
        },
      },
      { timeoutMs: this.#timings.connectTimeoutMs, cancelGraceMs: this.#timings.cancelGraceMs },
    );
    const active: ActiveRun = {
      id,
      appId,
      appName: app.name,
      clientId: app.clientId,
      serverId: app.serverId,
      startedAt: Date.parse(at),
      startedByName: actor.name,
      remote,
      log,
      masker,
      cancelledBy: null,
      closing: false,
      finished: Promise.resolve(),
    };
    active.finished = remote.done.then(async (result) => {
      for (const line of out.end()) log.output('out', line);
      for (const line of err.end()) log.output('err', line);
      try {
        await this.#finish(active, result);
      } catch (error) {
        this.#log.error({ err: error, runId: id }, 'the end of a run could not be recorded');
      } finally {
        this.#active.delete(id);
        this.#wake(id);
      }
    });
    this.#active.set(id, active);
    return { status: 'started', run: committed };
  }

  /**
   * Why the app can no longer run as it was read above, if it cannot: edited (what the person
   * confirmed is no longer its command), deleted, or its server deleted since. Its server is
   * kept and its row locked until the run is recorded (on PostgreSQL; SQLite writes one
   * transaction at a time): an edit or a delete under way waits, and a delete then finds the
   * run. The server first, as a server's delete locks it before the apps it updates.
   */
  async #changedSince(
    trx: Transaction<Database>,
    appId: string,
    read: { version: number | string; serverId: string | null },
  ): Promise<string | undefined> {
    const server = read.serverId
      ? await keepingRows(
          trx.selectFrom('server').select('id').where('id', '=', read.serverId),
          this.#db.dialect,
        ).executeTakeFirst()
      : undefined;
    const app = await lockingRows(
      trx.selectFrom('app').select(['version', 'serverId']).where('id', '=', appId),
      this.#db.dialect,
    ).executeTakeFirst();
    if (!app) return 'The app was deleted meanwhile';
    if (!server || Number(app.version) !== Number(read.version) || app.serverId !== read.serverId) {
      return 'The app was changed since you confirmed it: read its command again, then deploy';
    }
    return undefined;
  }

  async #finish(active: ActiveRun, result: RemoteResult): Promise<void> {
    const endedAt = new Date();
    const took = seconds(endedAt.getTime() - active.startedAt);
    let state: RunState;
    let reason: string | null = null;
    let exitCode: number | null = null;
    let signal: string | null = null;
    if (result.status === 'exited') ({ exitCode, signal } = result);
    if (active.closing) {
      state = 'interrupted';
      reason = 'the server process was stopped while it ran';
      active.log.system(`Interrupted after ${took}: ${reason}.`);
    } else if (active.cancelledBy !== null) {
      state = 'cancelled';
      if (result.status === 'failed') reason = active.masker.mask(result.reason);
      // The log says what the cancel could not do: a command that outlived TERM and KILL (a
      // root session's, whom OpenSSH will not signal) may run on.
      active.log.system(
        `Cancelled by ${active.cancelledBy} after ${took}${reason ? `: ${reason}` : ''}.`,
      );
    } else if (result.status === 'exited') {
      state = exitCode === 0 ? 'succeeded' : 'failed';
      active.log.system(
        exitCode !== null
          ? `Exited with code ${exitCode} after ${took}.`
          : `Ended by signal ${signal ?? 'unknown'} after ${took}.`,
      );
    } else {
      state = 'failed';
      reason = active.masker.mask(result.reason);
      active.log.system(`Failed after ${took}: ${reason}.`);
    }
    await active.log.flush();
    const ending = { state, reason, exitCode, signal, at: endedAt.toISOString() };
    // The database may refuse the write for a while (SQLite's write lock held past its busy
    // timeout by a long import, a PostgreSQL outage). Until it takes it the run stays this
    // instance's, heartbeating, and its app's next deploy waits, as while it ran: given up,
    // it would stay 'running' until a restart swept it.
    for (;;) {
      try {
        await this.#recordEnd(active, ending);
        return;
      } catch (error) {
        if (this.#closed) throw error;
        this.#log.warn(
          { err: error, runId: active.id },
          'the end of a run could not be recorded; trying again at the next heartbeat',
        );
        await delay(this.#timings.heartbeatMs, undefined, { signal: this.#closing.signal }).catch(
          () => undefined,
        );
      }
    }
  }

  /** The run's end on its row, with `run.ended` and the app's problem issue, in one transaction. */
  async #recordEnd(
    active: ActiveRun,
    ending: {
      state: RunState;
      reason: string | null;
      exitCode: number | null;
      signal: string | null;
      at: string;
    },
  ): Promise<void> {
    const { state, reason, exitCode, signal, at } = ending;
    await this.#db.kysely.transaction().execute(async (trx) => {
      const ended = await trx
        .updateTable('run')
        .set({
          state,
          endedAt: at,
          exitCode,
          signal,
          reason,
          logBytes: active.log.bytes,
          logTruncated: fromBool(active.log.truncated, this.#db.dialect),
        })
        .where('id', '=', active.id)
        .where('state', '=', 'running')
        .executeTakeFirst();
      // Swept by another instance that took it for lost, or gone with its client.
      if (Number(ended.numUpdatedRows) === 0) return;
      const key = runProblemKey(active.appId);
      if (state === 'failed') {
        const how = reason ?? (exitCode !== null ? `exit code ${exitCode}` : `signal ${signal}`);
        await openProblem(trx, this.#db.dialect, {
          key,
          clientId: active.clientId,
          serverId: active.serverId,
          appId: active.appId,
          title: `Deploy of ${active.appName} failed`,
          text: `The run started by ${active.startedByName} at ${when(active.startedAt)} failed (${how}). Its log is kept with the app's runs.`,
          at,
        });
      } else if (state === 'succeeded') {
        await resolveProblems(trx, this.#db.dialect, [key], at);
      }
      await appendEvents(trx, this.#db.dialect, [
        {
          kind: 'run.ended',
          clientId: active.clientId,
          appId: active.appId,
          runId: active.id,
          serverId: active.serverId,
          actor: SYSTEM_ACTOR,
          at,
          fields: [`${RUN_STATE_FIELD_PREFIX}${state}`],
        },
      ]);
    });
    this.#onCommitted();
  }

  /**
   * Asks the run to stop: recorded on its row with a `run.cancel_requested` event; its owner
   * acts at once when that is this instance, else at its next heartbeat.
   */
  async cancel(runId: string, actor: Actor): Promise<CancelOutcome> {
    const at = new Date().toISOString();
    const outcome = await this.#db.kysely.transaction().execute(async (trx) => {
      const run = await trx
        .selectFrom('run')
        .selectAll()
        .where('id', '=', runId)
        .executeTakeFirst();
      if (!run) return { status: 'not_found' } as const;
      if (run.state !== 'running') {
        return { status: 'refused', message: 'This run has ended already' } as const;
      }
      if (run.cancelRequestedAt !== null) return { status: 'asked' } as const;
      await trx
        .updateTable('run')
        .set({ cancelRequestedAt: at, cancelRequestedBy: actor.name })
        .where('id', '=', runId)
        .execute();
      await appendEvents(trx, this.#db.dialect, [
        {
          kind: 'run.cancel_requested',
          clientId: run.clientId,
          appId: run.appId,
          runId,
          ...(run.serverId ? { serverId: run.serverId } : {}),
          actor,
          at,
          fields: ['cancelRequestedAt'],
        },
      ]);
      return { status: 'asked', fresh: true } as const;
    });
    if (outcome.status !== 'asked') return outcome;
    if ('fresh' in outcome) this.#onCommitted();
    const active = this.#active.get(runId);
    if (active && active.cancelledBy === null) {
      active.cancelledBy = actor.name;
      active.remote.cancel();
    }
    this.#wake(runId);
    const row = await this.#db.kysely
      .selectFrom('run')
      .selectAll()
      .where('id', '=', runId)
      .executeTakeFirst();
    return row ? { status: 'done', run: presentRun(row) } : { status: 'not_found' };
  }

  /** The heartbeat: touch own runs, act on cancels asked elsewhere, sweep lost runs (PostgreSQL). */
  async #tick(): Promise<void> {
    if (this.#ticking || this.#closed) return;
    this.#ticking = true;
    try {
      const ids = [...this.#active.keys()];
      if (ids.length > 0) {
        const now = new Date().toISOString();
        await this.#db.kysely
          .updateTable('run')
          .set({ heartbeatAt: now })
          .where('id', 'in', ids)
          .where('state', '=', 'running')
          .execute();
        const rows = await this.#db.kysely
          .selectFrom('run')
          .select(['id', 'state', 'cancelRequestedBy'])
          .where('id', 'in', ids)
          .execute();
        const found = new Map(rows.map((row) => [row.id, row]));
        for (const id of ids) {
          const active = this.#active.get(id);
          const row = found.get(id);
          if (!active || active.cancelledBy !== null) continue;
          // Asked to stop on another instance, or its row is gone (its client was deleted).
          if (!row || row.state !== 'running' || row.cancelRequestedBy !== null) {
            active.cancelledBy = row?.cancelRequestedBy ?? 'the system';
            active.remote.cancel();
          }
        }
      }
      if (this.#db.dialect === 'postgres') {
        if (this.#steadyTicks >= STALE_HEARTBEATS) await this.#sweep();
        else await sql`select 1`.execute(this.#db.kysely);
      }
      this.#steadyTicks += 1;
    } catch (error) {
      this.#steadyTicks = 0;
      this.#log.warn({ err: error }, 'run heartbeat failed; trying again at the next one');
    } finally {
      this.#ticking = false;
    }
  }

  /**
   * Marks runs that no live instance holds as interrupted, with a line in their log and a
   * `run.ended` event. On SQLite one instance uses the file, so at start every 'running' run is
   * lost. On PostgreSQL other instances may be running theirs: only a run whose heartbeat is
   * older than three intervals is taken for lost (checked again on each heartbeat).
   */
  async #sweep(): Promise<number> {
    const staleBefore = new Date(
      Date.now() - STALE_HEARTBEATS * this.#timings.heartbeatMs,
    ).toISOString();
    const postgres = this.#db.dialect === 'postgres';
    let query = this.#db.kysely
      .selectFrom('run')
      .select(['id', 'appId', 'clientId', 'serverId'])
      .where('state', '=', 'running');
    if (postgres) query = query.where('heartbeatAt', '<', staleBefore);
    const lost = (await query.execute()).filter((run) => !this.#active.has(run.id));
    let swept = 0;
    for (const run of lost) {
      const at = new Date().toISOString();
      const done = await this.#db.kysely.transaction().execute(async (trx) => {
        let update = trx
          .updateTable('run')
          .set({
            state: 'interrupted',
            endedAt: at,
            reason: 'the server process stopped while it ran',
          })
          .where('id', '=', run.id)
          .where('state', '=', 'running');
        if (postgres) update = update.where('heartbeatAt', '<', staleBefore);
        const updated = await update.executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) return false;
        await appendSystemLine(
          trx,
          run.id,
          'Interrupted: the server process stopped while this ran; its end is unknown.\n',
          at,
        );
        await appendEvents(trx, this.#db.dialect, [
          {
            kind: 'run.ended',
            clientId: run.clientId,
            appId: run.appId,
            runId: run.id,
            ...(run.serverId ? { serverId: run.serverId } : {}),
            actor: SYSTEM_ACTOR,
            at,
            fields: [`${RUN_STATE_FIELD_PREFIX}interrupted`],
          },
        ]);
        return true;
      });
      if (done) {
        swept += 1;
        this.#wake(run.id);
      }
    }
    if (swept > 0) {
      this.#log.warn({ runs: swept }, 'runs left running by a stopped process marked interrupted');
      this.#onCommitted();
    }
    return swept;
  }

  /** On shutdown: this instance's runs are cancelled and recorded as interrupted. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort();
    clearInterval(this.#timer);
    const runs = [...this.#active.values()];
    for (const run of runs) {
      run.closing = true;
      run.remote.cancel();
    }
    await Promise.all(runs.map((run) => run.finished));
  }
}

async function runningOf(
  db: Pick<Transaction<Database>, 'selectFrom'>,
  appId: string,
): Promise<string | undefined> {
  const running = await db
    .selectFrom('run')
    .select(['startedByName', 'startedAt'])
    .where('appId', '=', appId)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return running
    ? `${running.startedByName} is running this app since ${when(running.startedAt)}`
    : undefined;
}

/** A line of the tool's own after the run's last piece (for a run no writer holds). */
async function appendSystemLine(
  trx: Transaction<Database>,
  runId: string,
  text: string,
  at: string,
): Promise<void> {
  const last = await trx
    .selectFrom('run')
    .select((eb) =>
      eb
        .selectFrom('runLog')
        .select((e) => e.fn.max('runLog.seq').as('seq'))
        .whereRef('runLog.runId', '=', 'run.id')
        .as('seq'),
    )
    .where('id', '=', runId)
    .executeTakeFirst();
  await trx
    .insertInto('runLog')
    .values({ runId, seq: Number(last?.seq ?? 0) + 1, stream: 'system', text, at })
    .execute();
  await trx
    .updateTable('run')
    .set((eb) => ({ logBytes: eb('logBytes', '+', Buffer.byteLength(text, 'utf8')) }))
    .where('id', '=', runId)
    .execute();
}

/**
 * `command` run in `directory` ('' for the login's home folder). SSH has no working directory of
 * its own: the shell changes to it first, and a folder that is not there ends the run with that
 * shell's message rather than running the command somewhere else.
 */
function inDirectory(directory: string, command: string): string {
  return directory === '' ? command : `cd -- ${shellQuote(directory)} || exit 1\n${command}`;
}
