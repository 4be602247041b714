/**
 * Query keys in one place: the live feed invalidates the same keys the features read, and a
 * prefix (e.g. `clientKeys.detail(id)`) covers everything under it.
 */
export const clientKeys = {
  all: ['clients'] as const,
  list: () => ['clients', 'list'] as const,
  detail: (id: string) => ['clients', 'detail', id] as const,
  commands: (id: string) => ['clients', 'detail', id, 'commands'] as const,
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
