import { clientIdSchema, clientInputSchema, type ClientValues } from '#shared/clients.ts';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  IMPORTABLE_VERSIONS,
  type ImportProblem,
} from '#shared/client-transfer.ts';
import {
  mapFileCredentials,
  mapServers,
  type FileCredential,
  type ImportedServer,
} from './import-servers.ts';

import { ImportFileError } from './import-errors.ts';

export { ImportFileError };

/** A document that passed validation: what to write, and the id to write it under. */
export interface ImportCandidate {
  /** Position of the document in the file, from 0. */
  index: number;
  /** A valid client id from the document; undefined: the client gets a new id. */
  id: string | undefined;
  values: ClientValues;
  /**
   * From a version 2 export: all the client's servers, which replace the stored ones (`values`
   * then holds the primary's fields, without a password). Undefined: `values.server` is
   * stored over the primary server, as the client form does.
   */
  servers?: ImportedServer[];
}

export interface MappedImport {
  total: number;
  candidates: ImportCandidate[];
  invalid: ImportProblem[];
  /** The vault credentials a version 2 export lists, by id. */
  credentials: ReadonlyMap<string, FileCredential>;
}

/** The client documents of a file and, for a version 2 export, its credentials. */
export interface ImportDocuments {
  documents: RawDocument[];
  /**
   * Only in our own export of version 2, whose servers lists and credentials are read: the
   * `credentials` as the file holds them, for mapFileCredentials.
   */
  credentials?: { listed: unknown };
}

interface RawDocument {
  /** The key the document was filed under, in an export keyed by document id. */
  key?: string;
  doc: unknown;
}

type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SHAPES_HINT =
  'Expected our own export, a list of client documents, { "clients": [...] }, or an object keyed by document id.';

/**
 * Finds the client documents in a parsed file. Accepted: our own export
 * (`{ format: "clients-manager-export", version: 1 or 2, clients }`, version 2 with its
 * `credentials`); a list of documents; `{ clients: [...] }` or `{ clients: { <id>: {...} } }`;
 * an object keyed by document id; and node-firestore-import-export's
 * `{ __collections__: { clients: { <id>: {...} } } }`.
 */
export function readImportFile(data: unknown): ImportDocuments {
  if (isPlain(data) && data.format === EXPORT_FORMAT) {
    if (typeof data.version !== 'number') {
      // "This export is of version 2; this server reads versions 1 and 2" would puzzle.
      const given = data.version === undefined ? 'undefined' : JSON.stringify(data.version);
      throw new ImportFileError(
        `version: Must be a number, such as ${EXPORT_VERSION} (not ${given})`,
      );
    }
    if (!IMPORTABLE_VERSIONS.includes(data.version)) {
      throw new ImportFileError(
        `This export is of version ${String(data.version)}; this server reads versions ${IMPORTABLE_VERSIONS.join(' and ')}.`,
      );
    }
    if (!Array.isArray(data.clients))
      throw new ImportFileError('The export has no "clients" list.');
    const documents = data.clients.map((doc) => ({ doc }));
    if (data.version < 2) return { documents };
    return { documents, credentials: { listed: data.credentials } };
  }
  return { documents: readImportDocuments(data) };
}

/** The client documents of a file in any shape readImportFile accepts. */
export function readImportDocuments(data: unknown): RawDocument[] {
  if (Array.isArray(data)) return data.map((doc) => ({ doc }));
  if (!isPlain(data))
    throw new ImportFileError(`The file holds no client documents. ${SHAPES_HINT}`);
  if (data.format === EXPORT_FORMAT) return readImportFile(data).documents;
  const collections = data.__collections__;
  if (isPlain(collections) && 'clients' in collections) {
    return readImportDocuments({ clients: collections.clients });
  }
  if ('clients' in data) {
    const clients = data.clients;
    if (Array.isArray(clients)) return clients.map((doc) => ({ doc }));
    if (isPlain(clients)) return keyedDocuments(clients);
    throw new ImportFileError(
      `"clients" is neither a list nor an object keyed by id. ${SHAPES_HINT}`,
    );
  }
  const values = Object.values(data);
  if (values.length > 0 && values.every(isPlain)) return keyedDocuments(data);
  throw new ImportFileError(`The file holds no client documents. ${SHAPES_HINT}`);
}

function keyedDocuments(byId: Plain): RawDocument[] {
  return Object.entries(byId).map(([key, doc]) => ({ key, doc }));
}

/** Strings as they are, numbers and booleans as text; absent or null: the field's default. */
function text(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value;
}

/** Firestore kept whatever the form sent: a port typed as "2222" is read as a number. */
function port(value: unknown): unknown {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return value;
}

function bool(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

function domains(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.split(/[\s,]+/).filter((url) => url !== '');
  return value;
}

const START_DATE_PROBLEM =
  'startDate: Must be a date (YYYY-MM-DD), an ISO timestamp, a date with its year and time zone written out, or a Firestore timestamp';

/**
 * A date string other than ISO's is read only with its year and its zone written out, as RFC
 * 2822 and JavaScript's Date text have them: any other text V8's loose parser would turn into a
 * date of its own ("Client 5" is 1 May 2001), or read in the server's time zone.
 */
function zonedDateText(text: string): boolean {
  return /\b\d{4}\b/.test(text) && /\b(?:GMT|UTC)\b|[+-]\d{4}\b/.test(text);
}

function isoDate(date: Date): string | undefined {
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 10);
}

/** The date a text with its zone writes (as an ISO timestamp's first ten characters are). */
function writtenDate(text: string): string | undefined {
  const zone = /([+-])(\d{2})(\d{2})\b/.exec(text);
  const minutes = zone ? (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3])) : 0;
  return isoDate(new Date(new Date(text).getTime() + minutes * 60_000));
}

/**
 * A start date as Firestore exports write it, as a calendar date: an ISO string, a
 * Timestamp as JSON (`{ seconds, nanoseconds }`, the Admin SDK's `{ _seconds, _nanoseconds }`,
 * node-firestore-import-export's `{ __datatype__: "timestamp", value: {...} }`), or a number of
 * milliseconds since 1970. A text is read as the date it writes; a timestamp, which has no
 * zone, as its date in UTC. `null` or absent: undefined (the default applies).
 */
export function readStartDate(value: unknown): { date: string | undefined } | { problem: string } {
  // The tool wraps a timestamp once: unwrapped here, not by recursing, so a wrapper within a
  // wrapper (however deep a crafted file nests them) is no date.
  const inner = isPlain(value) && value.__datatype__ === 'timestamp' ? value.value : value;
  if (inner === null || inner === undefined || inner === '') return { date: undefined };
  let date: string | undefined;
  if (typeof inner === 'string') {
    const trimmed = inner.trim();
    if (/^\d{4}-\d{2}-\d{2}/.test(trimmed)) date = trimmed.slice(0, 10);
    else if (zonedDateText(trimmed)) date = writtenDate(trimmed);
  } else if (typeof inner === 'number') {
    date = isoDate(new Date(inner));
  } else if (isPlain(inner)) {
    const seconds = inner.seconds ?? inner._seconds;
    if (typeof seconds === 'number') date = isoDate(new Date(seconds * 1000));
  }
  return date === undefined ? { problem: START_DATE_PROBLEM } : { date };
}

/** The document's id, from its fields or the key it was filed under. */
function documentId(doc: Plain, key: string | undefined): string | undefined {
  const raw = doc.id ?? doc.__id__ ?? doc._id ?? key;
  return typeof raw === 'string' || typeof raw === 'number' ? String(raw) : undefined;
}

/**
 * Ids that are also words of routes under /api/clients/ (`GET /api/clients/export`,
 * `POST /api/clients/bulk/restore`): such a client could not be reached or restored by its
 * id, so it gets a new one.
 */
const RESERVED_IDS = new Set(['export', 'import', 'bulk']);

type Mapped =
  | { id: string | undefined; values: ClientValues; servers?: ImportedServer[] }
  | { id?: string; reason: string };

/**
 * One document (ours or a Firestore one, SPEC.md section 3) as the Add Client form would send
 * it, validated by the same schema. Fields we do not keep (`command`, our `createdAt`,
 * `version`…) are ignored. An id that is not a valid client id is not an error: the client
 * gets a new one. With `credentials` (a version 2 export), a document's `servers` list is read
 * instead of its `server`, which repeats the primary for older readers: one place for each
 * value, so the primary's password is the one of its credential in the file's `credentials`.
 */
export function mapDocument(
  doc: unknown,
  key?: string,
  credentials?: ReadonlyMap<string, FileCredential>,
): Mapped {
  if (!isPlain(doc)) return { reason: 'Not an object: a client document is a JSON object' };
  const sourceId = documentId(doc, key);
  const id =
    clientIdSchema.safeParse(sourceId).success && !RESERVED_IDS.has(sourceId!)
      ? sourceId
      : undefined;
  const named = sourceId === undefined ? {} : { id: sourceId };
  // A bad start date is said beside the document's other faults, not instead of them.
  const start = readStartDate(doc.startDate);
  const startProblem = 'problem' in start ? start.problem : undefined;
  let servers: ImportedServer[] | undefined;
  let server = doc.server;
  if (credentials !== undefined && doc.servers !== undefined) {
    const mapped = mapServers(doc.servers, credentials);
    if ('reason' in mapped) return { ...named, reason: mapped.reason };
    servers = mapped.servers;
    const primary = servers.find((s) => s.primary);
    server = primary === undefined ? undefined : { ...primary, password: undefined };
  }
  const input = {
    name: text(doc.name),
    code: text(doc.code),
    description: text(doc.description),
    tags: doc.tags === null ? undefined : doc.tags,
    startDate: 'date' in start ? start.date : undefined,
    server:
      server === null || server === undefined
        ? undefined
        : isPlain(server)
          ? {
              host: text(server.host),
              port: port(server.port),
              username: text(server.username),
              password: text(server.password),
              private: bool(server.private),
              uiDir: text(server.uiDir),
            }
          : server,
    domains: domains(doc.domains),
  };
  const result = clientInputSchema.safeParse(input);
  if (result.success && startProblem === undefined) {
    return { id, values: result.data, ...(servers ? { servers } : {}) };
  }
  const reasons = new Map<string, string>();
  if (startProblem !== undefined) reasons.set('startDate', startProblem);
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path.map(String).join('.') || 'document';
    if (!reasons.has(field)) reasons.set(field, `${field}: ${issue.message}`);
  }
  return { ...named, reason: [...reasons.values()].join('; ') };
}

/** 12345 as "12,345" (toLocaleString would load ICU's locale data for one message). */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The whole file mapped: documents ready to write, and those that cannot be, each with its
 * index and reason. An id used by two documents makes the later one invalid. A file of more
 * than `maxDocuments` documents is refused before any is looked at.
 */
export async function mapImportFile(
  data: unknown,
  limits: { maxDocuments?: number } = {},
): Promise<MappedImport> {
  const file = readImportFile(data);
  const { documents } = file;
  const { maxDocuments } = limits;
  if (maxDocuments !== undefined && documents.length > maxDocuments) {
    throw new ImportFileError(
      `clients: The file holds ${grouped(documents.length)} client documents; an import takes at most ${grouped(maxDocuments)}. Split the file, or import it with npm run clients -- import.`,
    );
  }
  const credentials = file.credentials && (await mapFileCredentials(file.credentials.listed));
  const candidates: ImportCandidate[] = [];
  const invalid: ImportProblem[] = [];
  const seen = new Map<string, number>();
  documents.forEach(({ key, doc }, index) => {
    const mapped = mapDocument(doc, key, credentials);
    if ('reason' in mapped) {
      invalid.push({
        index,
        ...(mapped.id === undefined ? {} : { id: mapped.id }),
        reason: mapped.reason,
      });
      return;
    }
    if (mapped.id !== undefined) {
      const first = seen.get(mapped.id);
      if (first !== undefined) {
        invalid.push({
          index,
          id: mapped.id,
          reason: `id: The same id as document ${first}; each client may appear once`,
        });
        return;
      }
      seen.set(mapped.id, index);
    }
    const servers = 'servers' in mapped ? mapped.servers : undefined;
    candidates.push({
      index,
      id: mapped.id,
      values: mapped.values,
      ...(servers ? { servers } : {}),
    });
  });
  return { total: documents.length, candidates, invalid, credentials: credentials ?? new Map() };
}
