import { describe, expect, it } from 'vitest';
import { CLIENT_NAME_MAX, clientLabel, cloneName } from './clients.ts';

describe('clientLabel', () => {
  it('names a client by name and code, or by its id when it has neither', () => {
    expect(clientLabel({ id: 'c1', name: 'Acme', code: 'ACME' })).toBe('Acme (ACME)');
    expect(clientLabel({ id: 'c1', name: 'Acme', code: '' })).toBe('Acme');
    expect(clientLabel({ id: 'c1', name: '', code: '' })).toBe('c1');
  });
});

describe('cloneName', () => {
  it('adds the suffix to a name with room for it', () => {
    expect(cloneName('Initech')).toBe('Initech (Clone)');
  });

  it('cuts a long name so the copy fits, never inside a character or before a space', () => {
    expect(cloneName('a'.repeat(CLIENT_NAME_MAX))).toHaveLength(CLIENT_NAME_MAX);
    // The cut would fall between the two halves of the emoji.
    expect(cloneName(`${'a'.repeat(191)}😀tail`)).toBe(`${'a'.repeat(191)} (Clone)`);
    expect(cloneName(`${'a'.repeat(190)}  tail`)).toBe(`${'a'.repeat(190)} (Clone)`);
  });
});
