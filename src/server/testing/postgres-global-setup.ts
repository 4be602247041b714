import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { TestPostgres } from './embedded-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's PostgreSQL server; each test file makes its own database. */
    postgresUrl: string;
  }
}

/**
 * Global setup of the `postgres` Vitest project: starts one embedded PostgreSQL server for
 * the whole run (or uses the one TEST_DATABASE_URL names) and stops it at the end. A server
 * that cannot be reached fails the run.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    const client = new pg.Client({ connectionString: external, connectionTimeoutMillis: 10_000 });
    try {
      await client.connect();
      await client.query('select 1');
    } catch (error) {
      throw new Error(
        `TEST_DATABASE_URL is set but its server cannot be reached: ${String(error)}`,
        { cause: error },
      );
    } finally {
      await client.end().catch(() => undefined);
    }
    project.provide('postgresUrl', external);
    return;
  }
  const server = await TestPostgres.start();
  project.provide('postgresUrl', server.url());
  return () => server.destroy();
}
