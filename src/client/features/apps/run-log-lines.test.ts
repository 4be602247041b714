import { describe, expect, it } from 'vitest';
import type { RunLogLine, RunLogStream } from '#shared/apps.ts';
import { appendPieces, EMPTY_LOG, MAX_SHOWN_LINES, type LogView } from './run-log-lines.ts';

let at = 0;
const piece = (seq: number, stream: RunLogStream, text: string): RunLogLine => ({
  seq,
  stream,
  text,
  at: new Date(Date.UTC(2026, 10, 26, 12, 0, at++)).toISOString(),
});
const shown = (view: LogView) => view.lines.map((line) => `${line.stream}:${line.text}`);

describe('appendPieces', () => {
  it('splits pieces into lines and keeps each line with its stream', () => {
    const view = appendPieces(EMPTY_LOG, [
      piece(1, 'system', 'Connecting\n'),
      piece(2, 'out', 'line 1\nline 2\n'),
      piece(3, 'err', 'warning\n'),
    ]);
    expect(shown(view)).toEqual(['system:Connecting', 'out:line 1', 'out:line 2', 'err:warning']);
    expect(view.open).toBe(false);
    expect(view.lastSeq).toBe(3);
  });

  it('continues a line across pieces of the same stream, not of another', () => {
    let view = appendPieces(EMPTY_LOG, [piece(1, 'out', 'progr')]);
    expect(view.open).toBe(true);
    view = appendPieces(view, [piece(2, 'out', 'ess 50%\nnext')]);
    view = appendPieces(view, [piece(3, 'err', 'oops\n')]);
    view = appendPieces(view, [piece(4, 'out', 'more\n')]);
    expect(shown(view)).toEqual(['out:progress 50%', 'out:next', 'err:oops', 'out:more']);
  });

  it('keeps blank lines and reads CRLF as a newline', () => {
    const view = appendPieces(EMPTY_LOG, [piece(1, 'out', 'a\r\n\r\nb\n'), piece(2, 'out', '\n')]);
    expect(shown(view)).toEqual(['out:a', 'out:', 'out:b', 'out:']);
  });

  it('takes pieces in seq order and skips the ones seen already', () => {
    let view = appendPieces(EMPTY_LOG, [piece(2, 'out', 'two\n'), piece(1, 'out', 'one\n')]);
    expect(shown(view)).toEqual(['out:one', 'out:two']);
    const again = appendPieces(view, [piece(1, 'out', 'one\n'), piece(2, 'out', 'two\n')]);
    expect(again).toBe(view);
    view = appendPieces(view, [piece(2, 'out', 'two\n'), piece(3, 'out', 'three\n')]);
    expect(shown(view)).toEqual(['out:one', 'out:two', 'out:three']);
  });

  it('keeps the newest lines and counts the ones left out', () => {
    const text = Array.from({ length: MAX_SHOWN_LINES + 10 }, (_, i) => `n${i + 1}\n`).join('');
    const view = appendPieces(EMPTY_LOG, [piece(1, 'out', text)]);
    expect(view.lines).toHaveLength(MAX_SHOWN_LINES);
    expect(view.dropped).toBe(10);
    expect(view.lines[0]?.text).toBe('n11');
    expect(view.lines.at(-1)?.text).toBe(`n${MAX_SHOWN_LINES + 10}`);
  });
});
