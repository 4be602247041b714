import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/** Distinct SQL texts given a name: the app has a few dozen; the bound stops a runaway. */
const MAX_NAMED = 500;

/** PostgreSQL's answer to a prepared statement whose result columns a migration changed. */
function isStalePlan(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan');
}

/**
 * The pool as Kysely's PostgreSQL dialect uses it, running each parameterised SQL text as a
 * named prepared statement: PostgreSQL then parses and plans it once per connection instead of
 * on every run, which on this 2-core machine was most of a request's database CPU
 * (docs/decisions/0004-plain-reads.md). A prepared statement holds no data, only the plan:
 * every run reads the database afresh. Texts without parameters (transaction control, the
 * migrations' DDL, which may hold several statements) run as they are.
 *
 * A migration by another instance that adds a column changes what `select *` returns, and
 * PostgreSQL then refuses that statement's old plan. Its text runs unnamed from then on, and
 * the query that met the refusal is run again at once unless it was inside a transaction (which
 * the refusal has aborted: that write fails once and can be retried).
 */
export function withNamedStatements(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const unnamed = new Set<string>();
  const nameOf = (text: string, parameters: readonly unknown[]): string | undefined => {
    if (parameters.length === 0 || unnamed.has(text)) return undefined;
    let name = names.get(text);
    if (name === undefined && names.size < MAX_NAMED) {
      name = `cm${names.size}`;
      names.set(text, name);
    }
    return name;
  };
  return {
    options: pool.options,
    end: () => pool.end(),
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      // pg types a result's command as any string; Kysely's type names the ones it reads.
      const run = (config: pg.QueryConfig) =>
        client.query(config) as Promise<unknown> as Promise<PostgresQueryResult<unknown>>;
      async function query(text: string, parameters: readonly unknown[]) {
        // pg only reads them.
        const values = parameters as unknown[];
        const name = nameOf(text, parameters);
        if (name === undefined) return run({ text, values });
        // PostgreSQL's own word, from its answer to the query before: idle or in a transaction.
        const inTransaction = client.getTransactionStatus() !== 'I';
        try {
          return await run({ name, text, values });
        } catch (error) {
          if (!isStalePlan(error)) throw error;
          unnamed.add(text);
          if (inTransaction) throw error;
          return run({ text, values });
        }
      }
      return {
        // Kysely reads it to cancel a query that was aborted.
        get processID() {
          return (client as { processID?: number }).processID;
        },
        query: query as PostgresPoolClient['query'],
        release: (destroy?: boolean) => client.release(destroy),
      };
    },
  };
}
