/**
 * The shortest password or token accepted. Run logs hide a secret wherever it appears
 * (features/runs/masker.ts); one shorter than this would be hidden inside ordinary words, so it
 * is never hidden, and a secret that short guards nothing anyway. A module of its own: the
 * account's schemas (on the sign-in page and the dashboard) need it without the vault's.
 */
export const MIN_SECRET_LENGTH = 4;
export const SHORT_SECRET_MESSAGE = `Must be at least ${MIN_SECRET_LENGTH} characters, so that run logs can hide it`;
