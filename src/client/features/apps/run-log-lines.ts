import type { RunLogLine, RunLogStream } from '#shared/apps.ts';

/** One line on screen: the pieces of one stream up to a newline. */
export interface LogLine {
  key: string;
  stream: RunLogStream;
  text: string;
}

export interface LogView {
  /** The newest lines, at most `MAX_SHOWN_LINES`. */
  lines: readonly LogLine[];
  /** Older lines left out to keep the page light; the download has them. */
  dropped: number;
  /** The seq of the last piece taken in: a piece at or below it was seen already. */
  lastSeq: number;
  /** The last line has no newline yet: the next piece of its stream continues it. */
  open: boolean;
}

/**
 * A log holds up to 5 MB: that many lines in the page would make it crawl, while the end is what
 * someone watching a deploy reads. The whole log is a download away.
 */
export const MAX_SHOWN_LINES = 5000;

export const EMPTY_LOG: LogView = { lines: [], dropped: 0, lastSeq: 0, open: false };

/**
 * Takes pieces of a run's log into the lines shown, in seq order. A piece seen already (the
 * browser's EventSource resumes with Last-Event-ID after a drop, and a piece may arrive twice)
 * is skipped. A piece need not end at a newline: the next piece of the same stream continues
 * the line, one of another stream starts a new one.
 */
export function appendPieces(view: LogView, pieces: readonly RunLogLine[]): LogView {
  const fresh = pieces.filter((piece) => piece.seq > view.lastSeq).sort((a, b) => a.seq - b.seq);
  if (fresh.length === 0) return view;
  const lines = [...view.lines];
  let { open, lastSeq } = view;
  for (const piece of fresh) {
    if (piece.seq <= lastSeq) continue;
    lastSeq = piece.seq;
    const parts = piece.text.replaceAll('\r\n', '\n').split('\n');
    parts.forEach((part, index) => {
      const last = lines.at(-1);
      const isLast = index === parts.length - 1;
      if (index === 0 && open && last && last.stream === piece.stream) {
        lines[lines.length - 1] = { ...last, text: last.text + part };
      } else if (isLast && part === '') {
        // The piece ended with a newline: nothing more on this line yet.
      } else {
        lines.push({ key: `${piece.seq}-${index}`, stream: piece.stream, text: part });
      }
      if (isLast) open = part !== '';
    });
  }
  const over = Math.max(0, lines.length - MAX_SHOWN_LINES);
  return {
    lines: over > 0 ? lines.slice(over) : lines,
    dropped: view.dropped + over,
    lastSeq,
    open,
  };
}
