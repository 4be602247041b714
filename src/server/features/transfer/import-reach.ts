import type { Kysely } from 'kysely';
import { canSeeTags, type Access } from '#shared/people.ts';
import { IDS_PER_STATEMENT, chunks } from '#server/db/chunks.ts';
import type { Database } from '#server/db/schema.ts';
import { HttpError } from '#server/http/http-error.ts';
import { clientTagsOf, isLimited, ownTagProblem } from '#server/auth/tag-scope.ts';
import { canUseCredential } from '#server/features/credentials/credential-scope.ts';
import type { MappedImport } from './import-mapping.ts';

/** A refusal naming the document and the field, as the form's errors read. */
function refused(index: number, field: string, message: string): HttpError {
  return new HttpError(400, `Document ${index}: ${field}: ${message}. Nothing was imported.`, {
    fields: { [field]: message },
  });
}

/**
 * Access by tag for an import: a person limited to some tags may only create or replace
 * clients within them. A document outside refuses the whole import before anything is read
 * for writing (it never half-writes): one whose tags include none of theirs, one whose id a
 * client outside their tags has (live or deleted: replacing a deleted one would end its
 * Undo), and one whose servers name a vault credential they may not see. A credential the
 * file brings and the vault lacks is not anyone's yet: the import makes it, as the importing
 * person's own, or leaves it off the server when the file has no secret for it.
 */
export async function checkImportReach(
  db: Kysely<Database>,
  access: Access,
  { candidates, credentials }: MappedImport,
): Promise<void> {
  if (!isLimited(access)) return;
  for (const { index, values } of candidates) {
    const problem = ownTagProblem(access, values.tags);
    if (problem) throw refused(index, 'tags', problem);
  }
  const stored = await clientTagsOf(
    db,
    candidates.flatMap(({ id }) => (id === undefined ? [] : [id])),
  );
  for (const { index, id } of candidates) {
    const tags = id === undefined ? undefined : stored.get(id);
    if (tags !== undefined && !canSeeTags(access, tags)) {
      throw refused(index, 'id', 'Not a client you may change');
    }
  }
  const made = await missingFromVault(db, [...credentials.keys()]);
  const checked = new Map<string, boolean>();
  for (const { index, servers } of candidates) {
    for (const { credentialId } of servers ?? []) {
      if (credentialId === null || made.has(credentialId)) continue;
      if (!checked.has(credentialId)) {
        checked.set(credentialId, await canUseCredential(db, access, credentialId));
      }
      if (!checked.get(credentialId)) {
        throw refused(index, 'servers', 'Names a credential you may not use');
      }
    }
  }
}

/** Of `ids`, those no stored credential has. */
async function missingFromVault(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Set<string>> {
  const missing = new Set(ids);
  for (const chunk of chunks(ids, IDS_PER_STATEMENT)) {
    const rows = await db.selectFrom('credential').select('id').where('id', 'in', chunk).execute();
    for (const { id } of rows) missing.delete(id);
  }
  return missing;
}
