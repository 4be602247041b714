import { issueKindSchema, type IssueKind, type IssueListQuery } from '#shared/issues.ts';

export type StateFilter = 'open' | 'resolved' | 'all';

/** What the Issues section shows, as its address keeps it (`?state=&kind=&assignee=&q=`). */
export interface IssueFilter {
  /** Open unless the address says otherwise. */
  state: StateFilter;
  kind: IssueKind | '';
  /** '' for anyone, 'me', or a person's id. */
  assignee: string;
  q: string;
}

export const STATE_FILTERS = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'all', label: 'All' },
] as const;

export const KIND_FILTERS = [
  { value: '', label: 'Any kind' },
  { value: 'problem', label: 'Problems' },
  { value: 'note', label: 'Notes' },
] as const;

const PERSON_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The filter an address asks for; anything it cannot mean is left out, not refused. */
export function filterFromParams(params: URLSearchParams): IssueFilter {
  const state = params.get('state');
  const kind = issueKindSchema.safeParse(params.get('kind'));
  const assignee = params.get('assignee') ?? '';
  return {
    state: state === 'resolved' || state === 'all' ? state : 'open',
    kind: kind.success ? kind.data : '',
    assignee: PERSON_ID.test(assignee) ? assignee : '',
    q: (params.get('q') ?? '').trim().slice(0, 200),
  };
}

/** What `GET /api/issues` is asked: only what narrows the list (state open is its default). */
export function filterToQuery(filter: IssueFilter): IssueListQuery {
  return {
    state: filter.state,
    ...(filter.kind ? { kind: filter.kind } : {}),
    ...(filter.assignee ? { assigneeId: filter.assignee } : {}),
    ...(filter.q ? { q: filter.q } : {}),
  };
}

/** Whether a kind, a person or a search narrows the list (an empty one then "matches" none). */
export function isNarrowed(filter: IssueFilter): boolean {
  return filter.kind !== '' || filter.assignee !== '' || filter.q !== '';
}
