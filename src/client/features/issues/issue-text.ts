import type { Issue, IssueKind, SystemProblem } from '#shared/issues.ts';

export const KIND_LABELS: Record<IssueKind, string> = { note: 'Note', problem: 'Problem' };

/** What the system saw, for an issue it opened by itself. */
export const PROBLEM_LABELS: Record<SystemProblem, string> = {
  server_unreachable: 'the server is unreachable',
  host_key_changed: "the server's host key changed",
  run_failed: 'a deploy failed',
};

/** What an issue is about within its client: "staging", "web on staging", or nothing. */
export function issueSubject(issue: Pick<Issue, 'server' | 'app'>): string {
  if (issue.app && issue.server) return `${issue.app.name} on ${issue.server.label}`;
  return issue.app?.name ?? issue.server?.label ?? '';
}

/** The system signs what it opens as 'system'; people by their name. */
export function isSystem(person: { id: string | null }): boolean {
  return person.id === null;
}

/** "3 comments", "1 comment", "No comments". */
export function commentsLabel(count: number): string {
  if (count === 0) return 'No comments';
  return count === 1 ? '1 comment' : `${count} comments`;
}

/** Assignee choices by name; two of one name are told apart by their email. */
export function personOptions(
  people: readonly { id: string; name: string; email: string }[],
): { value: string; label: string }[] {
  const counts = new Map<string, number>();
  for (const person of people) counts.set(person.name, (counts.get(person.name) ?? 0) + 1);
  return people.map((person) => {
    if (person.name === '') return { value: person.id, label: person.email };
    const shared = (counts.get(person.name) ?? 0) > 1;
    return { value: person.id, label: shared ? `${person.name} (${person.email})` : person.name };
  });
}
