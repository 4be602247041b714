import { Badge } from '@mantine/core';
import type { IssueKind, IssueState } from '#shared/issues.ts';
import { KIND_LABELS } from '../issue-text.ts';

// Mantine cuts a badge's words short with an ellipsis and shouts them; these are read as words.
const badgeStyles = {
  root: { textTransform: 'none', height: 'auto', minHeight: 20, flexShrink: 0 },
  label: { overflow: 'visible', whiteSpace: 'normal', textOverflow: 'clip' },
} as const;

/** Decorative marks beside a badge's word: a triangle for a problem, a page for a note. */
function KindMark({ kind }: { kind: IssueKind }) {
  return (
    <svg
      width={12}
      height={12}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2.5}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {kind === 'problem' ? (
        <path d="M12 3L2 21h20zM12 10v4M12 17.5h.01" />
      ) : (
        <path d="M6 3h9l4 4v14H6zM9 12h6M9 16h6" />
      )}
    </svg>
  );
}

/**
 * Problem or note: told apart by the word and the mark, and by a filled versus an outlined
 * badge, not by colour alone.
 */
export function IssueKindBadge({ kind }: { kind: IssueKind }) {
  return (
    <Badge
      color={kind === 'problem' ? 'red' : 'gray'}
      variant={kind === 'problem' ? 'filled' : 'outline'}
      leftSection={<KindMark kind={kind} />}
      styles={badgeStyles}
    >
      {KIND_LABELS[kind]}
    </Badge>
  );
}

export function IssueStateBadge({ state }: { state: IssueState }) {
  return (
    <Badge
      // Teal 9 under white text: 5:1, where the filled green is 3.4:1.
      color={state === 'open' ? 'indigo' : 'teal.9'}
      variant={state === 'open' ? 'light' : 'filled'}
      styles={badgeStyles}
    >
      {state === 'open' ? 'Open' : 'Resolved'}
    </Badge>
  );
}
