import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import { AddressRefused, hostOf, resolveAllowed, type ResolvedAddress } from './webhook-address.ts';

/** What one attempt came to: a 2xx is delivered, anything else is retried later. */
export interface AttemptResult {
  delivered: boolean;
  /** The receiver's HTTP status; null when none answered. */
  responseCode: number | null;
  /** Why it failed, in words: never the URL's path or query (a Slack URL holds its secret). */
  error: string | null;
}

export interface AttemptRequest {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
  /** The whole attempt, from resolving the name to the answer's status line. */
  timeoutMs: number;
  allowPrivate: boolean;
  /** Aborted when the app closes: the attempt ends at once and records nothing. */
  signal: AbortSignal;
}

/** Error codes of the network and TLS layers, in words. */
const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed by the receiver',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name could not be resolved (DNS did not answer)',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS: the receiver has a self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS: a self-signed certificate in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS: the certificate could not be verified',
  CERT_HAS_EXPIRED: 'TLS: the certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS: the certificate is for another host name',
};

function inWords(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && REASONS[code]) return REASONS[code];
  return code ? `connection failed (${code})` : 'connection failed';
}

/** Connects to the address the guard checked, whatever the name resolves to by now. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}

/**
 * One delivery attempt: a JSON POST to the endpoint, on its own connection to the address that
 * the guard checked (webhook-address.ts). A 2xx is delivered; a redirect is not followed (it
 * could lead anywhere the guard would refuse) and counts as a failure naming it; a receiver
 * that does not answer within `timeoutMs` is cut off. The connection is closed once the status
 * line is read: the body, however long, is not read.
 */
export async function attemptDelivery(request: AttemptRequest): Promise<AttemptResult> {
  const failed = (error: string, responseCode: number | null = null): AttemptResult => ({
    delivered: false,
    responseCode,
    error,
  });
  const url = new URL(request.url);
  const host = hostOf(url);
  const deadline = AbortSignal.any([request.signal, AbortSignal.timeout(request.timeoutMs)]);
  let pinned: ResolvedAddress;
  try {
    const resolving = resolveAllowed(host, request.allowPrivate);
    const aborted = new Promise<never>((_, reject) => {
      deadline.addEventListener('abort', () => reject(deadline.reason as Error), { once: true });
    });
    [pinned] = (await Promise.race([resolving, aborted])) as [ResolvedAddress];
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason;
    if (error instanceof AddressRefused) return failed(error.message);
    if (deadline.aborted) return failed(`timed out after ${request.timeoutMs / 1000} s`);
    return failed(`${host}: ${inWords(error)}`);
  }
  const secure = url.protocol === 'https:';
  const send = secure ? https.request : http.request;
  return new Promise<AttemptResult>((resolve, reject) => {
    const req = send({
      method: 'POST',
      host,
      port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: { ...request.headers, 'content-length': String(request.body.length) },
      // One connection per attempt, to the pinned address: none is reused from another name.
      agent: false,
      lookup: pinnedLookup(pinned),
      ...(secure && net.isIP(host) === 0 ? { servername: host } : {}),
      signal: deadline,
    });
    req.on('response', (response) => {
      const status = response.statusCode ?? 0;
      // The status is the whole answer: the exchange ends here, so a body without end is never
      // read (reading it until the deadline would hold this server's CPU and sockets for it).
      response.on('error', () => undefined);
      response.destroy();
      req.destroy();
      if (status >= 200 && status < 300) {
        resolve({ delivered: true, responseCode: status, error: null });
      } else if (status >= 300 && status < 400) {
        resolve(failed(`redirected (HTTP ${status}): redirects are not followed`, status));
      } else {
        resolve(failed(`the receiver answered HTTP ${status}`, status));
      }
    });
    req.on('error', (error) => {
      if (request.signal.aborted) reject(request.signal.reason as Error);
      else if (deadline.aborted) resolve(failed(`timed out after ${request.timeoutMs / 1000} s`));
      else resolve(failed(inWords(error)));
    });
    req.end(request.body);
  });
}
