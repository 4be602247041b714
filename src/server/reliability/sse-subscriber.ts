import http from 'node:http';
import { STREAM_READY_EVENT, STREAM_RESET_EVENT } from '#shared/events.ts';

/**
 * A live-feed subscriber for the soak: it keeps counts, not messages (200 of them over a
 * minute would otherwise hold millions), and reconnects with Last-Event-ID the way a
 * browser's EventSource does. Event ids are contiguous sequence numbers, so anything but
 * `last + 1` is a dropped (a jump forward) or reordered (a step back or a repeat) event.
 */
export class SseSubscriber {
  received = 0;
  dropped = 0;
  reordered = 0;
  reconnects = 0;
  resets = 0;
  /** The newest sequence number seen (the head at `stream.ready`, then each event's id). */
  last = -1;
  #request: http.ClientRequest | undefined;
  #closed = false;
  readonly #url: URL;
  readonly #cookie: string;
  readonly #onError: (message: string) => void;

  constructor(url: string, cookie: string, onError: (message: string) => void) {
    this.#url = new URL('/api/events', url);
    this.#cookie = cookie;
    this.#onError = onError;
  }

  /** Resolves at the first `stream.ready`. */
  open(): Promise<void> {
    return new Promise((resolve, reject) => this.#connect(resolve, reject));
  }

  #connect(ready?: () => void, failed?: (error: Error) => void): void {
    const headers: Record<string, string> = { cookie: this.#cookie, accept: 'text/event-stream' };
    if (this.last >= 0) headers['last-event-id'] = String(this.last);
    const request = http.get(this.#url, { headers }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        const error = new Error(`event stream answered ${response.statusCode}`);
        if (failed) failed(error);
        else this.#onError(error.message);
        return;
      }
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (this.#frame(frame) === STREAM_READY_EVENT && ready) {
            ready();
            ready = undefined;
          }
        }
      });
      response.on('end', () => this.#reconnect());
      response.on('error', () => undefined);
    });
    request.on('error', (error) => {
      if (failed && ready) failed(error);
      else this.#reconnect();
    });
    this.#request = request;
  }

  #reconnect(): void {
    if (this.#closed) return;
    this.reconnects += 1;
    setTimeout(() => this.#connect(), 100);
  }

  /** Reads one frame; returns its event name. */
  #frame(frame: string): string {
    let event = 'message';
    let id: string | undefined;
    let data = '';
    for (const line of frame.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('data: ')) data = line.slice(6);
    }
    if (event === STREAM_READY_EVENT) {
      const head = (JSON.parse(data) as { seq: number }).seq;
      // The first ready sets the starting point; after a reconnect it must not be behind.
      if (this.last >= 0 && head < this.last) this.reordered += 1;
      this.last = Math.max(this.last, head);
    } else if (event === STREAM_RESET_EVENT) {
      this.resets += 1;
    } else if (id !== undefined) {
      const seq = Number(id);
      this.received += 1;
      if (seq <= this.last) this.reordered += 1;
      else {
        if (seq > this.last + 1) this.dropped += seq - this.last - 1;
        this.last = seq;
      }
    }
    return event;
  }

  close(): void {
    this.#closed = true;
    this.#request?.destroy();
  }
}
