import type { FastifyInstance } from 'fastify';
import { HttpError } from './http-error.ts';

/** Deeper than any body we accept; deep enough to refuse nothing a form sends. */
export const MAX_JSON_DEPTH = 32;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** How deeply arrays and objects nest in JSON text, strings skipped; stops past `limit`. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

const PROTOTYPE_KEYS_MESSAGE =
  'JSON body: keys named __proto__ or constructor.prototype are not taken';

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Fastify's own JSON parser (prototype-poisoning keys refused), with two checks before it:
 * bytes that are not UTF-8 are refused instead of being turned silently into U+FFFD and
 * stored, and nesting is bounded, since what reads a body afterwards (validation, the
 * Better Auth bridge's JSON.stringify) recurses and a 1 MB body of `[[[[…` overflowed its stack
 * into a 500.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new HttpError(400, 'Request body is not valid UTF-8'), undefined);
      return;
    }
    if (jsonDepth(text) > MAX_JSON_DEPTH) {
      done(
        new HttpError(400, `Malformed JSON body: nested more than ${MAX_JSON_DEPTH} levels deep`),
        undefined,
      );
      return;
    }
    void parse.call(app, request, text, (error, parsed) => {
      // Fastify's parser says "invalid JSON" for the keys it refuses as well: told apart here,
      // on the refused body alone, by a parse that does not refuse them.
      if (error && isJson(text)) {
        done(new HttpError(400, PROTOTYPE_KEYS_MESSAGE), undefined);
        return;
      }
      done(error, parsed);
    });
  });
}
