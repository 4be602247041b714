import { StringDecoder } from 'node:string_decoder';
import { MIN_SECRET_LENGTH } from '#shared/secret-length.ts';
import { quotedParts } from '#server/features/clients/shell-quote.ts';
import { withoutTerminalSequences } from './terminal-text.ts';

/** What a secret is replaced with in a run's command and log. */
export const SECRET_MASK = '••••••';

/** A line longer than this is passed on in parts, so one endless line cannot grow the buffer. */
const MAX_HELD_LINE = 16 * 1024;

/**
 * The pieces of a secret worth looking for: each line of it (a private key is many lines, and
 * output shows them one by one), as it is and trimmed, and as tools commonly print a value: as
 * the shell quoting of a command spells it (`'` as `'\''`, and as shellQuote writes it), escaped in JSON, URL-encoded,
 * backslash-escaped as bash's `printf %q` does, in hex, and in base64 wherever it starts in the
 * encoded text. A key's armour lines (`-----BEGIN …-----`) are no secret.
 */
function needlesOf(secret: string): string[] {
  const found = new Set<string>();
  for (const line of secret.split(/\r?\n/)) {
    for (const form of [line, line.trim()]) {
      if (form.length < MIN_SECRET_LENGTH || /^-----[A-Z ]+-----$/.test(form)) continue;
      for (const spelled of spellings(form)) {
        if (spelled.length >= MIN_SECRET_LENGTH) found.add(spelled);
      }
    }
  }
  return [...found];
}

/** The length of the pieces of a secret's base64 and hex that are looked for one by one. */
const WRAPPED_PIECE = 24;

/** A run of characters that base64 or hex is written in, long enough to hold a piece. */
const ENCODED_RUN = new RegExp(`[A-Za-z0-9+/=]{${WRAPPED_PIECE},}`, 'g');

/**
 * Tools wrap the base64 or hex they print (`base64` at 76 characters, `openssl base64` at 64,
 * `xxd -p` at 60), so a key printed so is cut into lines that no whole encoding above matches.
 * So every WRAPPED_PIECE-character piece of the secret's encodings, at the three base64
 * alignments and in hex of either case, is looked for in runs of such characters: a wrapped line
 * within an encoding holds pieces at each of its places, which merge into one mask. The secret
 * as a whole is enough: each of its lines is in one of the three alignments of the whole. Fewer
 * characters than a piece, where an encoding begins or ends inside a line, may stay. The pieces
 * are made for a run only once its output has such a run: an RSA 4096 key makes about 27,000
 * (some 16 ms), an Ed25519 key 3,000.
 */
function wrappedPieces(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const hex = bytes.toString('hex');
  const encodings = [hex, hex.toUpperCase()];
  for (let k = 0; k < 3; k++) {
    encodings.push(
      Buffer.concat([Buffer.alloc(k), bytes])
        .toString('base64')
        .slice(4, -4),
    );
  }
  const pieces: string[] = [];
  for (const encoded of encodings) {
    for (let at = 0; at + WRAPPED_PIECE <= encoded.length; at++) {
      pieces.push(encoded.slice(at, at + WRAPPED_PIECE));
    }
  }
  return pieces;
}

/** What bash's `printf %q` puts a backslash before: all but letters, digits and these. */
const SHELL_PLAIN = /[^A-Za-z0-9@%+=:/.\-_~#\u0080-\uffff]/g;

function spellings(form: string): string[] {
  const bytes = Buffer.from(form);
  const out = [
    form,
    form.replaceAll("'", `'\\''`),
    quotedParts(form).replace(/^'|'$/g, ''),
    JSON.stringify(form).slice(1, -1),
    encodeURIComponent(form),
    encodeURIComponent(form).replaceAll('%20', '+'),
    form.replace(SHELL_PLAIN, '\\$&'),
    bytes.toString('hex'),
  ];
  // Base64 of a longer text depends on where the secret starts in it: for each of the three
  // alignments, the middle of the encoding is the same whatever surrounds it.
  for (let k = 0; k < 3; k++) {
    const aligned = Buffer.concat([Buffer.alloc(k), bytes]);
    for (const encoding of ['base64', 'base64url'] as const) {
      out.push(aligned.toString(encoding).slice(4, -4));
    }
  }
  return out;
}

/** The ranges in order, overlapping and adjacent ones made one. */
function merged(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [start, end] of ranges.sort((a, b) => a[0] - b[0])) {
    const last = out.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/**
 * Replaces every secret in text with SECRET_MASK. Overlapping and adjacent occurrences of
 * several secrets become one mask, so no part of any of them is left in between.
 */
export class Masker {
  /**
   * The needles by their first MIN_SECRET_LENGTH characters. A private key makes about a
   * thousand needles, and searching a line for each of them in turn held the server's one
   * thread for 70–130 ms per 32 KB of short output lines (`yes` on the server); one look-up at
   * each place in the line keeps that to the length of the output.
   */
  readonly #byStart = new Map<string, string[]>();
  /** The longest needle or piece: a line ending in part of one may be holding its start. */
  readonly longest: number;
  readonly #secrets: string[];
  /** The pieces of the secrets' encodings (wrappedPieces), once output has needed them. */
  #pieces: Set<string> | undefined;

  constructor(secrets: readonly (string | null | undefined)[]) {
    this.#secrets = secrets.filter((secret): secret is string => Boolean(secret));
    const needles = new Set<string>();
    for (const secret of this.#secrets) for (const n of needlesOf(secret)) needles.add(n);
    for (const needle of needles) {
      const start = needle.slice(0, MIN_SECRET_LENGTH);
      const same = this.#byStart.get(start);
      if (same) same.push(needle);
      else this.#byStart.set(start, [needle]);
    }
    this.longest = Math.max(WRAPPED_PIECE, ...[...needles].map((n) => n.length));
  }

  mask(text: string): string {
    const spans = this.spans(text);
    let out = '';
    let cursor = 0;
    for (const [start, end] of spans) {
      out += text.slice(cursor, start) + SECRET_MASK;
      cursor = end;
    }
    return out + text.slice(cursor);
  }

  /** Where secrets are in text: [start, end) ranges in order, overlapping ones merged. */
  spans(text: string): [number, number][] {
    const found: [number, number][] = [];
    for (let at = 0; at + MIN_SECRET_LENGTH <= text.length; at++) {
      const needles = this.#byStart.get(text.slice(at, at + MIN_SECRET_LENGTH));
      if (!needles) continue;
      for (const needle of needles) {
        if (text.startsWith(needle, at)) found.push([at, at + needle.length]);
      }
    }
    for (const run of text.matchAll(ENCODED_RUN)) {
      this.#pieces ??= new Set(this.#secrets.flatMap(wrappedPieces));
      if (this.#pieces.size === 0) break;
      for (let at = run.index; at + WRAPPED_PIECE <= run.index + run[0].length; at++) {
        if (this.#pieces.has(text.slice(at, at + WRAPPED_PIECE))) {
          found.push([at, at + WRAPPED_PIECE]);
        }
      }
    }
    return merged(found);
  }

  /** A masker for one output stream, fed chunks as they arrive. */
  stream(): StreamMasker {
    return new StreamMasker(this);
  }
}

/**
 * Masks a stream line by line: a chunk may end inside a line, and so inside a secret, so the
 * unfinished line waits for the rest before it is masked and passed on. Bytes are decoded as
 * UTF-8 across chunk boundaries too.
 *
 * Each line also loses its terminal escape sequences (`terminal-text.ts`), between two
 * maskings: the first, of the raw line, masks a secret before an escape's final letter can eat
 * its first character and leave the rest unrecognised (`ESC` + `client-pw` reads as `ESC c`);
 * the second masks a secret that a sequence split (`TOK ESC[0m EN`), joined once it is cut out.
 */
export class StreamMasker {
  readonly #masker: Masker;
  readonly #decoder = new StringDecoder('utf8');
  #held = '';

  constructor(masker: Masker) {
    this.#masker = masker;
  }

  /** The masked lines this chunk completes, each with its newline. */
  push(chunk: Buffer | string): string[] {
    this.#held += typeof chunk === 'string' ? chunk : this.#decoder.write(chunk);
    const lines: string[] = [];
    let newline: number;
    while ((newline = this.#held.indexOf('\n')) >= 0) {
      lines.push(this.#clean(this.#held.slice(0, newline + 1)));
      this.#held = this.#held.slice(newline + 1);
    }
    while (this.#held.length > MAX_HELD_LINE) {
      // Passed on in parts of at most MAX_HELD_LINE, as a chunk may be twice that. What is kept
      // back is as long as the longest secret, so it holds the start of any secret the next
      // chunk may finish; a cut never falls inside a found one.
      let cut = Math.min(MAX_HELD_LINE, this.#held.length - Math.max(this.#masker.longest, 1));
      if (cut <= 0) break;
      for (const [start, end] of this.#masker.spans(this.#held)) {
        if (start < cut && cut < end) cut = end;
      }
      lines.push(this.#clean(this.#held.slice(0, cut)));
      this.#held = this.#held.slice(cut);
    }
    return lines;
  }

  /** Whatever was left without a newline at the end of the output, masked. */
  end(): string[] {
    const rest = this.#held + this.#decoder.end();
    this.#held = '';
    return rest === '' ? [] : [this.#clean(rest)];
  }

  #clean(text: string): string {
    return this.#masker.mask(withoutTerminalSequences(this.#masker.mask(text)));
  }
}
