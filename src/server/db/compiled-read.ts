import type { Compilable, CompiledQuery, Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

/**
 * A read Kysely builds and compiles once, then runs with new values for its parameters
 * (Kysely's "execute compiled queries" recipe). Kysely builds the query and writes its SQL again
 * every time it runs one: for the reads that every request makes (its session, a client by id)
 * that cost more CPU than running them. Only the SQL text is kept; every run reads the database
 * afresh, in the transaction it is given or outside any.
 *
 * `build` gets one placeholder for each of its declared parameters and must use them as the
 * query's only parameters, in order: this is checked when the read is made, so a parameter
 * added later fails at start, never at run time.
 */
export function compiledRead<Row, Keys extends string[]>(
  build: (...keys: Keys) => Compilable<Row>,
): (db: Kysely<Database> | Transaction<Database>, ...values: Keys) => Promise<Row[]> {
  const placeholders = Array.from({ length: build.length }, (_, i) => `\u0000value ${i}`) as Keys;
  const compiled = build(...placeholders).compile();
  const parameters = compiled.parameters;
  if (
    parameters.length !== placeholders.length ||
    parameters.some((parameter, i) => parameter !== placeholders[i])
  ) {
    throw new Error(
      `compiledRead: the query's parameters are not its ${build.length} values in order`,
    );
  }
  return async (db, ...values) => {
    const query: CompiledQuery<Row> = { ...compiled, parameters: values };
    return (await db.executeQuery(query)).rows;
  };
}
