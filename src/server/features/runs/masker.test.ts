import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { shellQuote } from '#server/features/clients/shell-quote.ts';
import { Masker, SECRET_MASK } from './masker.ts';

const M = SECRET_MASK;

/** Feeds chunks through one stream masker and joins what it passes on. */
function streamed(masker: Masker, chunks: (string | Buffer)[]): { lines: string[]; text: string } {
  const stream = masker.stream();
  const lines = [...chunks.flatMap((chunk) => stream.push(chunk)), ...stream.end()];
  return { lines, text: lines.join('') };
}

describe('Masker', () => {
  it('masks each secret wherever it appears', () => {
    const masker = new Masker(['s3cret-token', 'hunter22']);
    expect(masker.mask('token=s3cret-token pass=hunter22 again s3cret-token')).toBe(
      `token=${M} pass=${M} again ${M}`,
    );
  });

  it('masks a secret split across chunks, at every split point', () => {
    const secret = 'tok-ABCDEFGH';
    const masker = new Masker([secret]);
    const line = `using ${secret} now\n`;
    for (let cut = 1; cut < line.length; cut++) {
      const { text } = streamed(masker, [line.slice(0, cut), line.slice(cut)]);
      expect(text).toBe(`using ${M} now\n`);
      expect(text).not.toContain('ABCD');
    }
  });

  it('masks a secret cut inside a multi-byte character', () => {
    const secret = 'pässwörd-1';
    const bytes = Buffer.from(`x ${secret} y\n`, 'utf8');
    const at = bytes.indexOf(Buffer.from('ö', 'utf8')) + 1;
    const { text } = streamed(new Masker([secret]), [bytes.subarray(0, at), bytes.subarray(at)]);
    expect(text).toBe(`x ${M} y\n`);
  });

  it('masks overlapping and adjacent secrets as one, leaving no part of either', () => {
    const masker = new Masker(['abcdef', 'defghi', 'zzzz']);
    expect(masker.mask('[abcdefghi]')).toBe(`[${M}]`);
    expect(masker.mask('[abcdefzzzz]')).toBe(`[${M}]`);
    // One secret inside another.
    expect(new Masker(['long-secret-value', 'secret']).mask('a long-secret-value b secret')).toBe(
      `a ${M} b ${M}`,
    );
  });

  it('masks each line of a private key and leaves its armour', () => {
    const key = [
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
      'QyNTUxOQAAACBtb3JlIGtleSBtYXRlcmlhbCBoZXJlIGFuZCB0aGVyZQAAAJg=',
      '-----END OPENSSH PRIVATE KEY-----',
      '',
    ].join('\n');
    const { text } = streamed(new Masker([key]), [key.slice(0, 50), key.slice(50)]);
    expect(text).toBe(
      `-----BEGIN OPENSSH PRIVATE KEY-----\n${M}\n${M}\n-----END OPENSSH PRIVATE KEY-----\n`,
    );
  });

  it('masks a secret as the shell quoting of a command spells it', () => {
    const masker = new Masker(["it's-a-secret"]);
    expect(masker.mask(`--token 'it'\\''s-a-secret'`)).toBe(`--token '${M}'`);
  });

  it('masks a secret as the deploy command quotes it, backslashes outside the quotes', () => {
    const secret = "back\\slash'd";
    const masker = new Masker([secret]);
    expect(shellQuote(secret)).toBe("'back'\\\\'slash'\\''d'");
    expect(masker.mask(`--token ${shellQuote(secret)} --server x`)).toBe(
      `--token '${M}' --server x`,
    );
  });

  it('masks a secret as tools commonly print it: JSON, URL, printf %q, hex, base64', () => {
    const secret = 'Pw"with\\quote$ and space&x=1ü';
    const masker = new Masker([secret]);
    const printed = [
      JSON.stringify({ password: secret }),
      `https://deploy:${encodeURIComponent(secret)}@example.test/`,
      `a=${encodeURIComponent(secret).replaceAll('%20', '+')}&b=2`,
      // As bash prints it: printf '%q' "$secret".
      'Pw\\"with\\\\quote\\$\\ and\\ space\\&x=1ü',
      Buffer.from(secret).toString('hex'),
      // In base64 of a longer text, starting at each of the three places a byte can.
      ...['', 'a', 'ab'].flatMap((before) =>
        (['base64', 'base64url'] as const).map((encoding) =>
          Buffer.from(`${before}${secret} tail`).toString(encoding),
        ),
      ),
    ];
    for (const text of printed) {
      const masked = masker.mask(text);
      expect(masked, text).toContain(M);
      expect(masked, text).not.toContain('quote');
    }
    // The base64 middles are cut where the secret's own bytes begin and end.
    const encoded = Buffer.from(`xx${secret}yy`).toString('base64');
    expect(masker.mask(encoded).replace(M, '').length).toBeLessThan(encoded.length / 2);
  });

  it('masks a key in base64 or hex as tools print it, wrapped into lines', () => {
    const body = randomBytes(300).toString('base64');
    const key = [
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      ...(body.match(/.{1,70}/g) ?? []),
      '-----END OPENSSH PRIVATE KEY-----',
      '',
    ].join('\n');
    const masker = new Masker([key]);
    const wrapped = (text: string, width: number) =>
      `${(text.match(new RegExp(`.{1,${width}}`, 'g')) ?? []).join('\n')}\n`;
    const printed = {
      // `base64 id_ed25519`, `openssl base64 -in id_ed25519`, and after other bytes in a file.
      base64: wrapped(Buffer.from(key).toString('base64'), 76),
      openssl: wrapped(Buffer.from(key).toString('base64'), 64),
      'base64, later in a file': wrapped(Buffer.from(`# a\n${key}`).toString('base64'), 76),
      // `xxd -p id_ed25519`, and `xxd -p -u`.
      hex: wrapped(Buffer.from(key).toString('hex'), 60),
      'hex, upper case': wrapped(Buffer.from(key).toString('hex').toUpperCase(), 60),
    };
    for (const [how, text] of Object.entries(printed)) {
      const { lines } = streamed(masker, [text]);
      // The armour's own bytes at either end may stay; all that lies between is masked.
      const left = lines.map((line) => line.replaceAll(M, '').trim()).join('');
      expect(left.length, how).toBeLessThanOrEqual(60);
      const inner = lines.slice(1, -1);
      expect(inner.length, how).toBeGreaterThan(5);
      for (const line of inner) expect(line, how).toBe(`${M}\n`);
    }
  });

  it('leaves short values and empty secrets alone', () => {
    const masker = new Masker(['ab', '', null, undefined]);
    expect(masker.mask('ab cd ab')).toBe('ab cd ab');
  });

  it('passes an endless line on in parts, still masking a secret across the cut', () => {
    const secret = 'needle-in-a-haystack';
    const masker = new Masker([secret]);
    const stream = masker.stream();
    const filler = 'x'.repeat(20_000);
    const out: string[] = [];
    out.push(...stream.push(filler + secret.slice(0, 7)));
    // Something is passed on before the line ends, and no part of the secret with it.
    expect(out.join('').length).toBeGreaterThan(0);
    expect(out.join('')).not.toContain('needle');
    out.push(...stream.push(`${secret.slice(7)} tail`), ...stream.end());
    expect(out.join('')).toBe(`${filler}${M} tail`);
  });

  it('passes a long line on in parts of at most 16 KB, however large the chunks', () => {
    const secret = 'needle-in-a-haystack';
    const { lines, text } = streamed(new Masker([secret]), [
      'y'.repeat(10_000),
      `${'x'.repeat(32_000)}${secret}${'z'.repeat(32_000)}`,
      'end\n',
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(16 * 1024);
    expect(text).toBe(`${'y'.repeat(10_000)}${'x'.repeat(32_000)}${M}${'z'.repeat(32_000)}end\n`);
  });

  it('keeps lines whole and in order', () => {
    const { lines } = streamed(new Masker(['secret-1']), ['one\ntw', 'o\nthree secret-1\nfour']);
    expect(lines).toEqual(['one\n', 'two\n', `three ${M}\n`, 'four']);
  });

  it('cuts terminal sequences out of a stream between two maskings', () => {
    const masker = new Masker(['TOKEN-8f3a', 'client-pw-Zq81']);
    const raw = [
      // A colour code splits the token: found once the code is cut out.
      'a \x1b[31mTOK\x1b[0mEN-8f3a b\n',
      // ESC c is an escape of its own: had it been cut out first, it would eat the password's
      // first letter and leave the rest unmasked.
      'pw=\x1bclient-pw-Zq81\n',
      'osc \x1b]52;c;TOKEN-8f3a\x07 end\r\n',
    ];
    for (let cut = 1; cut < raw[0]!.length; cut++) {
      const { text } = streamed(masker, [
        raw[0]!.slice(0, cut),
        raw[0]!.slice(cut),
        ...raw.slice(1),
      ]);
      expect(text).toBe(`a ${M} b\npw=\x1b${M}\nosc  end\n`);
    }
  });
});
