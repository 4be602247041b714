import { replaceHidden } from '#shared/command-safe-text.ts';

/** What ssh2 and Node put on a connection's error. */
export type SshError = Error & { level?: string; code?: string | number };

/** The most of a server's own words a reason carries. */
const SERVER_WORDS_MAX = 160;

/**
 * Why an SSH connection failed, in words for a person. Never the credential: ssh2's messages
 * name protocol problems. A server's own words (the description of its DISCONNECT, any text
 * it likes) are quoted as its, on one line of plain characters and cut short: they are stored
 * as a check's or a run's reason and shown to staff, and must not pass for the app's.
 */
export function connectionFailure(error: SshError, timeoutMs: number): string {
  if (error.level === 'client-authentication') return 'authentication failed';
  if (error.level === 'client-timeout' || error.code === 'ETIMEDOUT') {
    return `timed out after ${formatSeconds(timeoutMs)}`;
  }
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
    return 'the host name does not resolve';
  }
  if (error.code === 'EHOSTUNREACH' || error.code === 'ENETUNREACH') return 'no route to the host';
  if (error.code === 'ECONNRESET') return 'the connection was reset';
  // ssh2 gives a DISCONNECT's reason number as the code and its description as the message.
  if (typeof error.code === 'number') {
    return `the server ended the connection, saying “${serverWords(error.message)}”`;
  }
  // ssh2's other messages are its own, but some carry a piece the server sent (a signature
  // type it names, say).
  return serverWords(error.message);
}

/** ssh2's words before a server's description of why it refused to open a session. */
const CHANNEL_OPEN_FAILURE = '(SSH) Channel open failure: ';

/** Why the server refused to run the command: its own description quoted as its. */
export function refusedCommand(error: Error): string {
  if (error.message.startsWith(CHANNEL_OPEN_FAILURE)) {
    const said = serverWords(error.message.slice(CHANNEL_OPEN_FAILURE.length));
    return `the server refused the command, saying “${said}”`;
  }
  return `the server refused the command: ${serverWords(error.message)}`;
}

/**
 * The name of the signal a command ended by, as ssh2 gives it (`SIGTERM`, or `SIGUNKNOWN (9)`
 * for an old server's number), or null for any other text: the server chooses it, and it is
 * shown in the run's log.
 */
export function exitSignalName(signal: unknown): string | null {
  if (typeof signal !== 'string') return null;
  return /^SIG[A-Z0-9]{1,16}( \(\d{1,3}\))?$/.test(signal) ? signal : null;
}

/** `2 s`, `0.5 s`. */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** Text a server chose, as one line of plain characters, cut short. */
export function serverWords(text: string): string {
  // Quotation marks become plain apostrophes, so the words cannot close the quote they are in.
  const plain = replaceHidden(text, () => ' ')
    .replace(/[“”„‟"]/gu, "'")
    .replace(/\s+/gu, ' ')
    .trim();
  const characters = [...plain];
  if (characters.length <= SERVER_WORDS_MAX) return plain;
  return `${characters.slice(0, SERVER_WORDS_MAX - 1).join('')}…`;
}
