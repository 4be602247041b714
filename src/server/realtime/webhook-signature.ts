import { createHmac, randomBytes } from 'node:crypto';

/**
 * `sha256=<hex HMAC-SHA256 of the exact body bytes under the endpoint's secret>`: what a
 * delivery carries in SIGNATURE_HEADER. The body holds the timestamp, so a receiver that checks
 * the signature and refuses an old timestamp refuses a replay.
 */
export function signatureOf(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** A signing secret the server makes when the administrator gives none: 256 random bits. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
