/**
 * Query keys in one place: the live feed invalidates the same keys the features read, and a
 * prefix (e.g. `clientKeys.detail(id)`) covers everything under it.
 */
export const clientKeys = {
  all: ['clients'] as const,
  list: () => ['clients', 'list'] as const,
  detail: (id: string) => ['clients', 'detail', id] as const,
  /** A server's commands under its client's: a change to the client invalidates them all. */
  commands: (id: string, serverId?: string) =>
    serverId === undefined
      ? (['clients', 'detail', id, 'commands'] as const)
      : (['clients', 'detail', id, 'commands', serverId] as const),
  history: (id: string) => ['clients', 'detail', id, 'history'] as const,
};

export const serverKeys = {
  all: ['servers'] as const,
  list: (filter: { clientId?: string; status?: string; q?: string } = {}) =>
    ['servers', 'list', filter] as const,
  detail: (id: string) => ['servers', 'detail', id] as const,
  history: (id: string) => ['servers', 'detail', id, 'history'] as const,
};

export const credentialKeys = {
  all: ['credentials'] as const,
  list: () => ['credentials', 'list'] as const,
  detail: (id: string) => ['credentials', 'detail', id] as const,
};

/** The People screen (administrators): everyone, the invitations, and the audit trail. */
export const peopleKeys = {
  all: ['people'] as const,
  list: () => ['people', 'list'] as const,
  audit: (filter: { kind?: string; actor?: string; person?: string } = {}) =>
    ['people', 'audit', filter] as const,
};

/** Settings → Webhooks (administrators): the endpoints, and each one's deliveries. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => ['webhooks', 'list'] as const,
  deliveries: (id: string) => ['webhooks', 'deliveries', id] as const,
};

/** Apps (every client's, or one client's) and their runs; a run's own record under `runs`. */
export const appKeys = {
  all: ['apps'] as const,
  list: (filter: { clientId?: string; state?: string; q?: string } = {}) =>
    ['apps', 'list', filter] as const,
  detail: (id: string) => ['apps', 'detail', id] as const,
  runs: (id: string) => ['apps', 'detail', id, 'runs'] as const,
};

export const runKeys = {
  all: ['runs'] as const,
  detail: (id: string) => ['runs', 'detail', id] as const,
};

/** The Issues section, an issue's page and comments, and a client's open issues in its panel. */
export const issueKeys = {
  all: ['issues'] as const,
  list: (
    filter: {
      clientId?: string;
      state?: string;
      kind?: string;
      assigneeId?: string;
      q?: string;
    } = {},
  ) => ['issues', 'list', filter] as const,
  detail: (id: string) => ['issues', 'detail', id] as const,
  comments: (id: string) => ['issues', 'detail', id, 'comments'] as const,
  /** With a client: those who can see it; without, everyone (and every such list). */
  assignees: (clientId?: string) =>
    clientId === undefined
      ? (['issues', 'assignees'] as const)
      : (['issues', 'assignees', clientId] as const),
};
