import type { ColumnType, Generated } from 'kysely';
import type { CredentialKind, ServerStatus } from '#shared/servers.ts';

/**
 * Row types as the drivers hand them back. Timestamps and booleans differ by dialect
 * (SQLite: ISO text and 0/1; PostgreSQL: Date and boolean), so they are typed loosely here
 * and normalised in one place: db/codec.ts.
 */
type Timestamp = ColumnType<string | Date, string | Date, string | Date>;
type Bool = ColumnType<number | boolean, number | boolean, number | boolean>;

export interface ClientTable {
  id: string;
  name: string;
  code: string;
  description: string;
  /** JSON array of strings. */
  tags: string;
  startDate: string;
  /** The server its commands use; null when it has none. */
  primaryServerId: string | null;
  /** JSON array of URLs. */
  domains: string;
  createdAt: Timestamp;
  createdBy: string | null;
  updatedAt: Timestamp;
  updatedBy: string | null;
  version: number;
}

/** A deleted client's last row, kept for undo (restore with the same id and version). */
export interface DeletedClientTable extends ClientTable {
  /** JSON array of its server rows (ServerSnapshot), put back on restore. */
  servers: string;
  deletedAt: Timestamp;
  deletedBy: string | null;
}

/** One of a client's servers; it may use a credential from the vault. */
export interface ServerTable {
  id: string;
  clientId: string;
  /** Order among the client's servers. */
  position: number;
  label: string;
  host: string;
  port: number;
  username: string;
  uiDir: string;
  private: Bool;
  credentialId: string | null;
  /** The pinned host key (trust on first use), as OpenSSH names and prints it. */
  hostKeyAlgorithm: string | null;
  hostKeyFingerprint: string | null;
  /** The different host key the last check was offered; a person may accept it. */
  offeredHostKeyAlgorithm: string | null;
  offeredHostKeyFingerprint: string | null;
  checkStatus: Generated<ServerStatus>;
  /** Why the last check failed ('connection refused', …); null after a success. */
  checkReason: string | null;
  checkedAt: Timestamp | null;
  /** When the status last changed. */
  statusSince: Timestamp | null;
  createdAt: Timestamp;
  createdBy: string | null;
  updatedAt: Timestamp;
  updatedBy: string | null;
  version: number;
}

/** A secret in the vault: an SSH private key, a password or a token. */
export interface CredentialTable {
  id: string;
  name: string;
  kind: CredentialKind;
  /** AES-256-GCM sealed (secrets.ts) at the credential's place. */
  secret: string;
  /**
   * A password moved from a client by migration 0007 is still sealed at that client's place
   * until the next start re-seals it here; null otherwise.
   */
  sealedForClient: string | null;
  /** A pasted SSH key's passphrase, sealed as the secret is; null when it has none. */
  passphrase: string | null;
  /** For an SSH key: its OpenSSH public key line and SHA256 fingerprint. */
  publicKey: string | null;
  fingerprint: string | null;
  createdAt: Timestamp;
  createdBy: string | null;
  updatedAt: Timestamp;
  updatedBy: string | null;
  revealedAt: Timestamp | null;
  revealedBy: string | null;
  version: number;
}

export interface EventTable {
  seq: Generated<number>;
  kind: string;
  /** The client it is about; null for a `credential.*` event. */
  clientId: string | null;
  /** The server a `server.*` event is about; null for the others. */
  serverId: string | null;
  /** The credential a `credential.*` event is about; null for the others. */
  credentialId: string | null;
  /** The person a `person.*` event is about; null for the others. */
  personId: string | null;
  /** The webhook endpoint a `webhook.*` event is about; null for the others. */
  webhookId: ColumnType<string | null, string | null | undefined, string | null>;
  /** The app an `app.*` or `run.*` event is about (and an issue's app); null for the others. */
  appId: ColumnType<string | null, string | null | undefined, string | null>;
  /** The run a `run.*` event is about; null for the others. */
  runId: ColumnType<string | null, string | null | undefined, string | null>;
  /** The issue an `issue.*` event is about; null for the others. */
  issueId: ColumnType<string | null, string | null | undefined, string | null>;
  actorId: string | null;
  actorName: string;
  at: Timestamp;
  /** JSON array of the changed field names (never values). */
  fields: string;
  /**
   * For a `client.updated` event that changed the client's tags: its tags before (JSON array),
   * which decide who is told to reload (realtime/event-scope.ts). Never presented.
   */
  tagsBefore: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface DeployTokenTable {
  userId: string;
  /** AES-256-GCM sealed access token. */
  token: string;
  updatedAt: Timestamp;
}

/** Better Auth's core tables, as its Kysely adapter reads and writes them. */
export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: Bool;
  image: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  disabled: Bool;
  /** 'list' or 'table': how this person sees the client list (listViewSchema). */
  listView: Generated<string>;
  /** admin, editor or viewer (roleSchema). */
  role: Generated<string>;
  /** JSON array of the tags this person is limited to; null: every client. */
  tags: string | null;
  lastSignInAt: Timestamp | null;
  /** Better Auth's twoFactor plugin: a second factor is set up and asked at sign-in. */
  twoFactorEnabled: ColumnType<number | boolean, number | boolean | undefined, number | boolean>;
}

/** Better Auth's twoFactor plugin: a person's one TOTP secret and backup codes (both sealed by it). */
export interface TwoFactorTable {
  id: string;
  secret: string;
  backupCodes: string;
  userId: string;
  verified: ColumnType<number | boolean, number | boolean | undefined, number | boolean>;
  failedVerificationCount: Generated<number>;
  lockedUntil: Timestamp | null;
  /** The step of the last code accepted (auth/one-use-codes.ts), null before the first. */
  lastUsedStep: number | null;
}

/** @better-auth/passkey: one WebAuthn credential of a person. */
export interface PasskeyTable {
  id: string;
  name: string | null;
  publicKey: string;
  userId: string;
  credentialID: string;
  counter: number;
  deviceType: string;
  backedUp: Bool;
  transports: string | null;
  createdAt: Timestamp | null;
  aaguid: string | null;
}

/** An administrator's invitation: a sign-up link for one address, with the role and tags. */
export interface InvitationTable {
  id: string;
  email: string;
  role: string;
  /** JSON array, or null for every client. */
  tags: string | null;
  /** SHA-256 of the token in the link; the token itself is only in the mail. */
  tokenHash: string;
  invitedById: string | null;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  acceptedAt: Timestamp | null;
}

/** A personal API token (features/tokens): only its SHA-256 is kept. */
export interface ApiTokenTable {
  id: string;
  userId: string;
  name: string;
  /** read, read+secrets or write (src/shared/tokens.ts). */
  scope: string;
  /** The token's first characters, shown to recognise it; not enough to use it. */
  prefix: string;
  /** SHA-256 of the whole token, hex. */
  tokenHash: string;
  createdAt: Timestamp;
  expiresAt: Timestamp | null;
  lastUsedAt: Timestamp | null;
  /** The per-token rate limit's current minute and its count of requests. */
  windowStartedAt: Timestamp | null;
  windowCount: number;
}

export interface SessionTable {
  id: string;
  expiresAt: Timestamp;
  token: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Timestamp | null;
  refreshTokenExpiresAt: Timestamp | null;
  scope: string | null;
  password: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface RateLimitTable {
  id: string;
  key: string;
  count: number;
  lastRequest: number | string;
}

/** PostgreSQL hands a bigint back as text; SQLite as a number. */
type BigInteger = ColumnType<number | string, number, number>;

/** A webhook endpoint (migration 0012): where the outbox delivers the events it wants. */
export interface WebhookTable {
  id: string;
  url: string;
  /** JSON array of the event kinds it wants. */
  events: string;
  /** 'json' or 'slack' (webhookFormatSchema). */
  format: string;
  enabled: Bool;
  /** The signing secret, AES-256-GCM sealed at the endpoint's place (secrets.ts). */
  secret: string;
  /** The last event sequence number it has been given deliveries for. */
  cursor: BigInteger;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /**
   * The administrator the endpoint speaks for: its maker, then whoever saved it last. It is sent
   * to only while they are an enabled administrator (realtime/webhook-owner.ts).
   */
  createdById: string | null;
}

/** One event for one endpoint, with its latest attempt (deliveryStatusSchema). */
export interface WebhookDeliveryTable {
  id: string;
  webhookId: string;
  eventSeq: BigInteger;
  eventKind: string;
  status: string;
  attempts: number;
  responseCode: number | null;
  error: string | null;
  /** When it was queued: retries stop 24 hours after this. */
  createdAt: Timestamp;
  firstAttemptAt: Timestamp | null;
  lastAttemptAt: Timestamp | null;
  nextAttemptAt: Timestamp | null;
  deliveredAt: Timestamp | null;
}

/** An app of a client (migration 0013): what runs where, with which command. */
export interface AppTable {
  id: string;
  clientId: string;
  /** The server it runs on; null once that server is deleted. */
  serverId: string | null;
  name: string;
  /** '' for the server's uiDir. */
  directory: string;
  /** JSON array of URLs. */
  domains: string;
  /** Its run command template; null for APP_RUN_TEMPLATE. */
  command: string | null;
  createdAt: Timestamp;
  createdBy: string | null;
  updatedAt: Timestamp;
  updatedBy: string | null;
  version: number;
}

/** One deploy of an app (runStateSchema): who, when, the command as shown, how it ended. */
export interface RunTable {
  id: string;
  appId: string;
  clientId: string;
  serverId: string | null;
  state: string;
  /** The command as people are shown it: every secret masked. */
  command: string;
  startedById: string | null;
  startedByName: string;
  startedAt: Timestamp;
  endedAt: Timestamp | null;
  exitCode: number | null;
  signal: string | null;
  /** Why it failed to start, was refused or was interrupted; null otherwise. */
  reason: string | null;
  logBytes: number;
  logTruncated: Bool;
  /** Written by the instance running it, so another instance can tell a run it lost. */
  heartbeatAt: Timestamp | null;
  cancelRequestedAt: Timestamp | null;
  cancelRequestedBy: string | null;
}

/** A piece of a run's output, in order (masked before it is written). */
export interface RunLogTable {
  runId: string;
  seq: number;
  /** 'out', 'err' or 'system' (runLogStreamSchema). */
  stream: string;
  text: string;
  at: Timestamp;
}

/** An issue of a client (issueKindSchema, issueStateSchema). */
export interface IssueTable {
  id: string;
  clientId: string;
  serverId: string | null;
  appId: string | null;
  kind: string;
  state: string;
  title: string;
  text: string;
  /** For a problem the system opened: what it is about; one open issue per key. */
  problemKey: string | null;
  /** null for the system. */
  authorId: string | null;
  authorName: string;
  assigneeId: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  resolvedAt: Timestamp | null;
  resolvedById: string | null;
  resolvedByName: string | null;
  version: number;
}

export interface IssueCommentTable {
  id: string;
  issueId: string;
  authorId: string | null;
  authorName: string;
  text: string;
  createdAt: Timestamp;
}

export interface Database {
  client: ClientTable;
  server: ServerTable;
  credential: CredentialTable;
  event: EventTable;
  deletedClient: DeletedClientTable;
  deployToken: DeployTokenTable;
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  rateLimit: RateLimitTable;
  twoFactor: TwoFactorTable;
  passkey: PasskeyTable;
  invitation: InvitationTable;
  webhook: WebhookTable;
  webhookDelivery: WebhookDeliveryTable;
  apiToken: ApiTokenTable;
  app: AppTable;
  run: RunTable;
  runLog: RunLogTable;
  issue: IssueTable;
  issueComment: IssueCommentTable;
}
