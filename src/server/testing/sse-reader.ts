export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
  /** When it was read off the socket (performance.now()), for latency measurements. */
  receivedAt: number;
}

/**
 * Reads a Server-Sent Events response as a real client would: frames split on blank lines,
 * comments skipped. `next()` waits for the next message or fails after a timeout.
 */
export class SseReader {
  readonly messages: SseMessage[] = [];
  /** Every byte read so far, as text: to prove something was never sent, in any form. */
  raw = '';
  ended = false;
  #buffer = '';
  #taken = 0;
  #wake: (() => void) | null = null;
  readonly #abort: AbortController;

  constructor(response: Response, abort: AbortController) {
    this.#abort = abort;
    void this.#pump(response.body!);
  }

  async #pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      const reader = body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        this.raw += text;
        this.#buffer += text;
        let end: number;
        while ((end = this.#buffer.indexOf('\n\n')) >= 0) {
          const frame = this.#buffer.slice(0, end);
          this.#buffer = this.#buffer.slice(end + 2);
          this.#parse(frame);
        }
      }
    } catch {
      // aborted by close()
    } finally {
      this.ended = true;
      this.#wake?.();
    }
  }

  #parse(frame: string): void {
    const message: SseMessage = {
      id: undefined,
      event: 'message',
      data: '',
      receivedAt: performance.now(),
    };
    let hasData = false;
    for (const line of frame.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') message.id = value;
      else if (field === 'event') message.event = value;
      else if (field === 'data') {
        message.data += (hasData ? '\n' : '') + value;
        hasData = true;
      }
    }
    if (!hasData) return;
    this.messages.push(message);
    this.#wake?.();
  }

  async next(timeoutMs = 5000): Promise<SseMessage> {
    const deadline = Date.now() + timeoutMs;
    while (this.#taken >= this.messages.length) {
      if (this.ended) throw new Error('stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no event within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        setTimeout(resolve, left);
      });
      this.#wake = null;
    }
    return this.messages[this.#taken++]!;
  }

  /** Reads until an event of `kind` arrives; returns everything read on the way, that one last. */
  async until(kind: string, timeoutMs = 5000): Promise<SseMessage[]> {
    const seen: SseMessage[] = [];
    for (;;) {
      const message = await this.next(timeoutMs);
      seen.push(message);
      if (message.event === kind) return seen;
    }
  }

  close(): void {
    this.#abort.abort();
  }
}

export async function openEventStream(
  baseUrl: string,
  cookie: string,
  lastEventId?: string,
): Promise<SseReader> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/api/events`, {
    headers: {
      cookie,
      accept: 'text/event-stream',
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
    signal: abort.signal,
  });
  if (response.status !== 200) throw new Error(`event stream answered ${response.status}`);
  return new SseReader(response, abort);
}
