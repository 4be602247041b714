import { isDeepStrictEqual } from 'node:util';
import type { Transaction } from 'kysely';
import type { Db } from '#server/db/database.ts';
import type { Database } from '#server/db/schema.ts';
import type { ServerStatus } from '#shared/servers.ts';
import { CHECK_STATUS_FIELD_PREFIX } from '#shared/events.ts';
import type { SecretBox } from '#server/secrets.ts';
import { appendEvents, type NewEvent } from '#server/realtime/event-log.ts';
import {
  checkReachability,
  type CheckOptions,
  type CheckResult,
  type CheckTarget,
} from '#server/ssh/reachability.ts';
import { openProblem, resolveProblems, serverProblemKey } from '../issues/problem-issues.ts';
import { DeployTokens } from '../account/deploy-tokens.ts';
import { clientSecrets } from '../credentials/client-secrets.ts';
import { Masker } from '../runs/masker.ts';
import {
  CREDENTIAL_SECRET_COLUMNS,
  joinedSshCredential,
} from '../credentials/credential-secrets.ts';

export type CheckOutcome = 'checked' | 'not_found' | 'no_host';

interface RunUnderWay {
  target: CheckTarget;
  result: Promise<CheckResult>;
  /** The checks awaiting it, the one that started it among them. */
  callers: number;
}

/** What a check result does to a server's row. */
function statusOf(result: CheckResult): { status: ServerStatus; reason: string | null } {
  switch (result.status) {
    case 'reachable':
      return { status: 'reachable', reason: null };
    case 'unreachable':
      return { status: 'unreachable', reason: result.reason };
    case 'host-key-changed':
      return {
        status: 'host_key_changed',
        reason: `host key changed: the server offered ${result.hostKey.fingerprint} (${result.hostKey.algorithm}), not the pinned ${result.pinned.fingerprint}`,
      };
  }
}

/**
 * The different key a server offered, kept for a person to accept exactly that one; a server
 * that shows its pinned key again has nothing to accept. A check never replaces the pinned key.
 * An unreachable server showed no key: what was offered before stays.
 */
function offeredKeyOf(result: CheckResult) {
  switch (result.status) {
    case 'host-key-changed':
      return {
        offeredHostKeyAlgorithm: result.hostKey.algorithm,
        offeredHostKeyFingerprint: result.hostKey.fingerprint,
      };
    case 'reachable':
      return { offeredHostKeyAlgorithm: null, offeredHostKeyFingerprint: null };
    case 'unreachable':
      return {};
  }
}

/**
 * Reachability checks of servers (`ssh/reachability.ts`), and what they leave on the server:
 * its status with the reason and times, and, at the first success, its pinned host key (trust
 * on first use). A check is recorded as a `server.checked` event of the server's client. It
 * does not raise the server's version, which counts edits: a check must not turn a colleague's
 * save into a conflict.
 */
export class ServerChecks {
  readonly #db: Db;
  readonly #box: SecretBox;
  readonly #onCommitted: () => void;
  readonly #options: CheckOptions;
  readonly #tokens: DeployTokens;
  /** Per server, the check whose SSH login is under way on this instance. */
  readonly #underWay = new Map<string, RunUnderWay>();

  constructor(db: Db, box: SecretBox, onCommitted: () => void, options: CheckOptions = {}) {
    this.#db = db;
    this.#box = box;
    this.#onCommitted = onCommitted;
    this.#options = options;
    this.#tokens = new DeployTokens(db.kysely, box);
  }

  /** How many checks of the server wait on the SSH login under way to it. */
  awaiting(id: string): number {
    return this.#underWay.get(id)?.callers ?? 0;
  }

  /**
   * `signal` stops the check (the app is closing): it then rejects and records nothing.
   * `eventOnlyOnChange`: the schedule's checks leave an event only when the status changes or a
   * key is pinned (a server checked every 15 minutes would otherwise add 96 events a day that
   * say nothing); the row's check time is written either way. 'Check now' always leaves one.
   */
  async check(
    id: string,
    actor: NewEvent['actor'],
    options: { signal?: AbortSignal; eventOnlyOnChange?: boolean } = {},
  ): Promise<CheckOutcome> {
    const { signal, eventOnlyOnChange = false } = options;
    const server = await this.#db.kysely
      .selectFrom('server')
      .leftJoin('credential', 'credential.id', 'server.credentialId')
      .select([
        'server.id',
        'server.clientId',
        'server.host',
        'server.port',
        'server.username',
        'server.hostKeyAlgorithm',
        'server.hostKeyFingerprint',
        'server.version',
        'credential.kind as credentialKind',
        ...CREDENTIAL_SECRET_COLUMNS,
      ])
      .where('server.id', '=', id)
      .executeTakeFirst();
    if (!server) return 'not_found';
    if (server.host === '') return 'no_host';

    const pinned =
      server.hostKeyAlgorithm !== null && server.hostKeyFingerprint !== null
        ? { algorithm: server.hostKeyAlgorithm, fingerprint: server.hostKeyFingerprint }
        : undefined;
    // A password or a key logs in. A token is for an API, not for SSH: with one (or none) the
    // check only reads the host key, and a server that shows one is reachable.
    const credential = joinedSshCredential(this.#box, server) ?? undefined;
    const result = await this.#masked(
      await this.#reach(
        id,
        { host: server.host, port: server.port, username: server.username, credential, pinned },
        signal,
      ),
      server.clientId,
    );

    const { status, reason } = statusOf(result);
    const pinNow = result.status === 'reachable' && pinned === undefined;
    const at = new Date().toISOString();
    const written = await this.#db.kysely.transaction().execute(async (trx) => {
      // The status as it is now, not as the check read it before its login: another check may
      // have written one since (and opened or resolved an issue by it). Locked on PostgreSQL
      // until this one is written; SQLite writes one at a time.
      let current = trx.selectFrom('server').select('checkStatus').where('id', '=', id);
      if (this.#db.dialect === 'postgres') current = current.forUpdate();
      const before = (await current.executeTakeFirst())?.checkStatus;
      // Edited meanwhile (another host, say), or its key pinned or accepted since this check
      // read it: this result is about what it was, and is dropped. A check never replaces a pin.
      const updated = await trx
        .updateTable('server')
        .set({
          checkStatus: status,
          checkReason: reason,
          checkedAt: at,
          ...(status === before ? {} : { statusSince: at }),
          ...(pinNow
            ? {
                hostKeyAlgorithm: result.hostKey.algorithm,
                hostKeyFingerprint: result.hostKey.fingerprint,
              }
            : {}),
          ...offeredKeyOf(result),
        })
        .where('id', '=', id)
        .where('version', '=', server.version)
        .where((eb) =>
          pinned
            ? eb.and([
                eb('hostKeyAlgorithm', '=', pinned.algorithm),
                eb('hostKeyFingerprint', '=', pinned.fingerprint),
              ])
            : eb('hostKeyFingerprint', 'is', null),
        )
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      const changed = status !== before;
      if (eventOnlyOnChange && !changed && !pinNow) return false;
      const fields = [`${CHECK_STATUS_FIELD_PREFIX}${status}`, ...(pinNow ? ['hostKey'] : [])];
      await appendEvents(trx, this.#db.dialect, [
        { kind: 'server.checked', clientId: server.clientId, serverId: id, actor, at, fields },
      ]);
      // After the check's event, which history then shows as the cause of the issue's.
      if (changed) await this.#problemIssues(trx, id, result, at);
      return true;
    });
    if (written) this.#onCommitted();
    return 'checked';
  }

  /**
   * The result with the server's own words (quoted in an unreachable reason) masked against
   * every secret it may have been given, as a run's reason is: the reason is shown to anyone
   * who may read the server, and goes into its problem issue.
   */
  async #masked(result: CheckResult, clientId: string): Promise<CheckResult> {
    if (result.status !== 'unreachable') return result;
    const secrets = [
      ...(await clientSecrets(this.#db, this.#box, clientId)),
      ...(await this.#tokens.readAll()),
    ];
    return { ...result, reason: new Masker(secrets).mask(result.reason) };
  }

  /**
   * The server's reachability, from the check under way to it when that one reaches the same
   * address as the same user with the same credential and pin, else from a new one. 'Check now'
   * clicked again and again, by one person or several, would otherwise log in to the client's
   * server once a click, side by side: enough failed or parallel logins and the server's own
   * defences (fail2ban, MaxStartups) block the tool. Each caller still writes what it saw. A
   * check that joins another stops with the first one's signal, not its own.
   */
  async #reach(id: string, target: CheckTarget, signal: AbortSignal | undefined) {
    let run = this.#underWay.get(id);
    if (run === undefined || !isDeepStrictEqual(run.target, target)) {
      const result = checkReachability(target, { ...this.#options, ...(signal ? { signal } : {}) });
      const started: RunUnderWay = { target, result, callers: 0 };
      this.#underWay.set(id, started);
      const done = () => {
        if (this.#underWay.get(id) === started) this.#underWay.delete(id);
      };
      result.then(done, done);
      run = started;
    }
    run.callers += 1;
    try {
      return await run.result;
    } finally {
      run.callers -= 1;
    }
  }

  /**
   * The problem issues of a status that just changed, in the check's transaction: unreachable
   * or a changed host key opens one (unless one is open for it already), and the server
   * answering resolves them; a changed key means the server answered, so it resolves
   * 'unreachable' too. Nothing happens while the status stays the same: a problem issue a
   * person resolved while the server was still down stays resolved until the status changes
   * again, so a scheduled check does not reopen what a person closed on purpose.
   */
  async #problemIssues(
    trx: Transaction<Database>,
    id: string,
    result: CheckResult,
    at: string,
  ): Promise<void> {
    const { dialect } = this.#db;
    const unreachableKey = serverProblemKey(id, 'server_unreachable');
    const hostKeyKey = serverProblemKey(id, 'host_key_changed');
    if (result.status === 'reachable') {
      await resolveProblems(trx, dialect, [unreachableKey, hostKeyKey], at);
      return;
    }
    const server = await trx
      .selectFrom('server')
      .innerJoin('client', 'client.id', 'server.clientId')
      .select([
        'server.clientId',
        'server.label',
        'server.host',
        'server.port',
        'server.username',
        'client.name as clientName',
        'client.code as clientCode',
      ])
      .where('server.id', '=', id)
      .executeTakeFirstOrThrow();
    const named = `Server "${server.label}" of ${server.clientName} (${server.clientCode})`;
    const address = `${server.username === '' ? '' : `${server.username}@`}${server.host}:${server.port}`;
    const about = { clientId: server.clientId, serverId: id, at };
    if (result.status === 'unreachable') {
      await openProblem(trx, dialect, {
        ...about,
        key: unreachableKey,
        title: `${named} is unreachable`,
        text: `The check at ${at} could not reach ${address} over SSH: ${result.reason}. This issue is resolved by itself when a check reaches the server again.`,
      });
      return;
    }
    await resolveProblems(trx, dialect, [unreachableKey], at);
    await openProblem(trx, dialect, {
      ...about,
      key: hostKeyKey,
      title: `${named} offers a different host key`,
      text: `The check at ${at} was offered the host key ${result.hostKey.fingerprint} (${result.hostKey.algorithm}) by ${address}, not the pinned ${result.pinned.fingerprint} (${result.pinned.algorithm}). The server may have been reinstalled, or someone may be in the way. No check signs in to it until a person confirms the new fingerprint with whoever runs the server and accepts it: in the Servers section, open the server and choose 'Accept new key'. This issue is resolved by itself when a check next reaches the server with the key it trusts.`,
    });
  }
}
