import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '#server/db/database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Apps, their runs with the runs' logs, and issues with their comments.
 *
 * - `app.directory` and `app.command`: '' and null stand for the server's uiDir and
 *   APP_RUN_TEMPLATE, so a changed default applies to every app that never set its own.
 * - `run`: one deploy of an app. At most one per app is 'running' (a partial unique index, so
 *   two instances cannot both start one). `heartbeatAt` is written by the instance running it;
 *   `cancelRequestedAt` asks that instance to stop it.
 * - `runLog`: the run's output in order, masked before it is written, capped by the writer.
 * - `issue.problemKey`: what a problem the system opened is about (`server:<id>:unreachable`,
 *   `app:<id>:run_failed`, …); a partial unique index keeps one open issue per problem.
 * - `event.appId`, `event.runId`, `event.issueId`: the app, run or issue an event is about.
 */
export function appsRunsIssues(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('app')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('clientId', 'text', (c) =>
          c.notNull().references('client.id').onDelete('cascade'),
        )
        .addColumn('serverId', 'text', (c) => c.references('server.id').onDelete('set null'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('directory', 'text', (c) => c.notNull())
        .addColumn('domains', 'text', (c) => c.notNull())
        .addColumn('command', 'text')
        .addColumn('createdAt', t.timestamp, (c) => c.notNull())
        .addColumn('createdBy', 'text')
        .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
        .addColumn('updatedBy', 'text')
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('app_client_name_idx')
        .on('app')
        .columns(['clientId', 'name'])
        .unique()
        .execute();
      await db.schema.createIndex('app_server_idx').on('app').column('serverId').execute();

      await db.schema
        .createTable('run')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('appId', 'text', (c) => c.notNull().references('app.id').onDelete('cascade'))
        .addColumn('clientId', 'text', (c) => c.notNull())
        .addColumn('serverId', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('command', 'text', (c) => c.notNull())
        .addColumn('startedById', 'text')
        .addColumn('startedByName', 'text', (c) => c.notNull())
        .addColumn('startedAt', t.timestamp, (c) => c.notNull())
        .addColumn('endedAt', t.timestamp)
        .addColumn('exitCode', 'integer')
        .addColumn('signal', 'text')
        .addColumn('reason', 'text')
        .addColumn('logBytes', 'integer', (c) => c.notNull())
        .addColumn('logTruncated', t.boolean, (c) => c.notNull())
        .addColumn('heartbeatAt', t.timestamp)
        .addColumn('cancelRequestedAt', t.timestamp)
        .addColumn('cancelRequestedBy', 'text')
        .execute();
      await db.schema
        .createIndex('run_app_idx')
        .on('run')
        .columns(['appId', 'startedAt'])
        .execute();
      await db.schema
        .createIndex('run_one_running_idx')
        .on('run')
        .column('appId')
        .unique()
        .where(sql.ref('state'), '=', 'running')
        .execute();

      await db.schema
        .createTable('runLog')
        .addColumn('runId', 'text', (c) => c.notNull().references('run.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('stream', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('runLog_pk', ['runId', 'seq'])
        .execute();

      await db.schema
        .createTable('issue')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('clientId', 'text', (c) =>
          c.notNull().references('client.id').onDelete('cascade'),
        )
        .addColumn('serverId', 'text', (c) => c.references('server.id').onDelete('set null'))
        .addColumn('appId', 'text', (c) => c.references('app.id').onDelete('set null'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('problemKey', 'text')
        .addColumn('authorId', 'text')
        .addColumn('authorName', 'text', (c) => c.notNull())
        .addColumn('assigneeId', 'text', (c) => c.references('user.id').onDelete('set null'))
        .addColumn('createdAt', t.timestamp, (c) => c.notNull())
        .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
        .addColumn('resolvedAt', t.timestamp)
        .addColumn('resolvedById', 'text')
        .addColumn('resolvedByName', 'text')
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('issue_client_state_idx')
        .on('issue')
        .columns(['clientId', 'state'])
        .execute();
      await db.schema
        .createIndex('issue_open_problem_idx')
        .on('issue')
        .column('problemKey')
        .unique()
        .where(sql.ref('state'), '=', 'open')
        .execute();

      await db.schema
        .createTable('issueComment')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('issueId', 'text', (c) => c.notNull().references('issue.id').onDelete('cascade'))
        .addColumn('authorId', 'text')
        .addColumn('authorName', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('createdAt', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('issueComment_issue_idx')
        .on('issueComment')
        .columns(['issueId', 'createdAt'])
        .execute();

      await db.schema.alterTable('event').addColumn('appId', 'text').execute();
      await db.schema.alterTable('event').addColumn('runId', 'text').execute();
      await db.schema.alterTable('event').addColumn('issueId', 'text').execute();
    },
  };
}
