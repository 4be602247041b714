/**
 * One export at a time on this instance. An export is built whole in memory (every client read
 * at once, then one pretty-printed string of the file), and on SQLite the reads answer
 * synchronously, so exports asked for together would run back to back on the event loop and
 * hold every other request meanwhile, each with a file of tens of MB in memory. The gate is
 * held from the moment the export is taken on until its answer has been handed to the
 * operating system or its connection has closed (the response's 'close'): a reader that stops
 * reading keeps it until the socket's inactivity timeout ends the connection (app.ts). The
 * command line's export (`npm run clients -- export`) does not come through here.
 */
export class ExportGate {
  #busy = false;

  /** Takes the gate: its release (idempotent), or null when an export holds it. */
  enter(): (() => void) | null {
    if (this.#busy) return null;
    this.#busy = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#busy = false;
    };
  }
}

/** Seconds a refused export is told to wait: an export of 10,000 clients takes a few. */
export const EXPORT_RETRY_AFTER_SECONDS = 5;

export const EXPORT_BUSY_MESSAGE =
  'Another export is being prepared on this server. Exports run one at a time, as each holds the whole file in memory: try again in a few seconds.';
