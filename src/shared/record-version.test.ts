import { describe, expect, it } from 'vitest';
import { runLogQuerySchema, runStartSchema } from './apps.ts';
import { clientUpdateSchema } from './clients.ts';
import { recordVersionSchema } from './record-version.ts';

const message = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('the version a change carries', () => {
  it('says what is wrong with it, not only that it must be a number', () => {
    expect(message(recordVersionSchema.safeParse('2'))).toBe('Must be a number');
    expect(message(recordVersionSchema.safeParse(1.5))).toBe('Must be a whole number');
    expect(message(recordVersionSchema.safeParse(0))).toBe('Must be 1 or more');
    expect(recordVersionSchema.safeParse(3).success).toBe(true);
    expect(message(clientUpdateSchema.safeParse({ name: 'x', version: 0 }))).toBe(
      'Must be 1 or more',
    );
  });
});

describe("a deploy's request and its log's query", () => {
  it('name the limit a value is over, not its type', () => {
    expect(message(runStartSchema.safeParse({ host: 'h'.repeat(1001) }))).toBe(
      'At most 1000 characters',
    );
    expect(message(runStartSchema.safeParse({ directory: 'd'.repeat(4097) }))).toBe(
      'At most 4096 characters',
    );
    expect(message(runStartSchema.safeParse({ version: 0 }))).toBe('Must be 1 or more');
    expect(message(runLogQuerySchema.safeParse({ after: '-1' }))).toBe('Must be 0 or more');
    expect(message(runLogQuerySchema.safeParse({ after: 'x' }))).toBe('Must be a number');
  });
});
