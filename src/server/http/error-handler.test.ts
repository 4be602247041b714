import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { DELETED_MEANWHILE_MESSAGE, registerErrorHandling } from './error-handler.ts';

/** An app whose one route fails with `error`, answered by the app's error handling. */
async function answerTo(error: Error) {
  const app = Fastify();
  registerErrorHandling(app, { spa: false });
  app.get('/fails', async () => {
    throw error;
  });
  const response = await app.inject({ method: 'GET', url: '/fails' });
  await app.close();
  return { status: response.statusCode, body: response.json<unknown>() };
}

describe('a write refused by a foreign key', () => {
  it("is a 409 naming the column PostgreSQL's constraint names", async () => {
    const violation = Object.assign(
      new Error('insert or update on table "run" violates foreign key constraint "run_appId_fkey"'),
      { code: '23503', constraint: 'run_appId_fkey' },
    );
    expect(await answerTo(violation)).toEqual({
      status: 409,
      body: {
        error: `appId: ${DELETED_MEANWHILE_MESSAGE}`,
        fields: { appId: DELETED_MEANWHILE_MESSAGE },
      },
    });
  });

  it("is a 409 without a field for SQLite's, which names none", async () => {
    const violation = Object.assign(new Error('FOREIGN KEY constraint failed'), {
      code: 'SQLITE_CONSTRAINT_FOREIGNKEY',
    });
    expect(await answerTo(violation)).toEqual({
      status: 409,
      body: { error: DELETED_MEANWHILE_MESSAGE },
    });
  });
});
