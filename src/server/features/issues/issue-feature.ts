import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/database.ts';
import type { EventHub } from '#server/realtime/event-hub.ts';
import { IssueRepository } from './issue-repository.ts';
import { IssueWrites } from './issue-writes.ts';
import { registerIssueRoutes } from './issue-routes.ts';

/**
 * The Issues section's parts, put together for app.ts in one call. The problem issues the
 * system opens and resolves by itself come from the server checks and runs
 * (problem-issues.ts), inside their own transactions.
 */
export function registerIssueFeature(app: FastifyInstance, deps: { db: Db; hub: EventHub }): void {
  const { db, hub } = deps;
  registerIssueRoutes(app, {
    issues: new IssueRepository(db.kysely, db.dialect),
    writes: new IssueWrites(db, () => void hub.wake()),
  });
}
