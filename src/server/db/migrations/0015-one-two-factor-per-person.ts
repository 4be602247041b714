import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

interface FactorRow {
  id: string;
  userId: string;
  verified: number | boolean;
  lastUsedStep: number | string | null;
}

/**
 * One `twoFactor` row per person. Better Auth's enable route creates a row when it finds none,
 * so two enables racing each other left two, each with its own secret: the person's app held
 * one, sign-in could check the other, and auth/one-use-codes.ts could claim a step on a row
 * Better Auth did not check. A unique index makes the second create fail instead.
 *
 * A person with two rows keeps the one their app is most likely to hold: a verified row over
 * one never confirmed, then the one that accepted a code last, then the lowest id.
 */
export function oneTwoFactorPerPerson(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const { rows } = await sql<FactorRow>`
        select "id", "userId", "verified", "lastUsedStep" from "twoFactor"
        where "userId" in (select "userId" from "twoFactor" group by "userId" having count(*) > 1)
      `.execute(db);
      for (const id of rowsToDrop(rows)) {
        await sql`delete from "twoFactor" where "id" = ${id}`.execute(db);
      }
      await db.schema.dropIndex('twoFactor_userId_idx').execute();
      await db.schema
        .createIndex('twoFactor_userId_unique')
        .on('twoFactor')
        .column('userId')
        .unique()
        .execute();
    },
  };
}

function rowsToDrop(rows: FactorRow[]): string[] {
  const byPerson = new Map<string, FactorRow[]>();
  for (const row of rows) byPerson.set(row.userId, [...(byPerson.get(row.userId) ?? []), row]);
  const drop: string[] = [];
  for (const factors of byPerson.values()) {
    const [, ...rest] = factors.sort(keptFirst);
    drop.push(...rest.map((row) => row.id));
  }
  return drop;
}

function keptFirst(a: FactorRow, b: FactorRow): number {
  const verified = Number(b.verified) - Number(a.verified);
  if (verified !== 0) return verified;
  const used = Number(b.lastUsedStep ?? -1) - Number(a.lastUsedStep ?? -1);
  if (used !== 0) return used;
  return a.id < b.id ? -1 : 1;
}
