import type { IncomingHttpHeaders } from 'node:http';

/**
 * The token of an `Authorization: Bearer …` header, or undefined without one. A request that
 * carries one is decided by the token alone (auth/session-guard.ts: its cookies are not looked
 * at), which is also why the CSRF check lets it through (csrf.ts): one reading of the header
 * for both, so they cannot disagree about which requests are token requests.
 */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const header = headers.authorization;
  if (header === undefined || !/^Bearer(?:[ \t]|$)/i.test(header)) return undefined;
  return header.slice('Bearer'.length).trim();
}
