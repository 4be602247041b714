import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logger.ts';
import { requestLoggerFactory } from './request-logger.ts';

/** A real pino logger with the app's options, writing its lines here, counting its children. */
function logger(level: string) {
  const lines: Record<string, unknown>[] = [];
  const root = pino(loggerOptions(level), {
    write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  let children = 0;
  const child = root.child.bind(root);
  root.child = ((...args: Parameters<typeof child>) => {
    children += 1;
    return child(...args);
  }) as typeof root.child;
  return { root, lines, children: () => children };
}

describe('request logger', () => {
  it('makes no child logger for a request that writes no line at the level set', () => {
    const { root, lines, children } = logger('warn');
    const log = requestLoggerFactory(root, { reqId: 'req-1' }, {});
    log.info({ req: { url: '/api/clients' } }, 'incoming request');
    log.debug('detail');
    expect(lines).toEqual([]);
    expect(children()).toBe(0);
    expect(log.level).toBe('warn');
  });

  it('writes what a child would: its bindings, the redaction of secrets, once made', () => {
    const { root, lines, children } = logger('info');
    const log = requestLoggerFactory(root, { reqId: 'req-2' }, {});
    log.info('first');
    log.warn({ body: { password: 'hunter2' } }, 'second');
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
      ['req-2', 'first'],
      ['req-2', 'second'],
    ]);
    expect(JSON.stringify(lines)).not.toContain('hunter2');
    expect(children()).toBe(1);
    expect(log.child({ part: 'x' }).level).toBe('info');
  });

  it("makes the child at once for a route's own level, as Fastify would", () => {
    const { root, lines, children } = logger('warn');
    const log = requestLoggerFactory(root, { reqId: 'req-3' }, { level: 'debug' });
    log.debug('shown at the route level');
    expect(children()).toBe(1);
    expect(lines.map((l) => l.msg)).toEqual(['shown at the route level']);
  });
});
