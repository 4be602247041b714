import { describe, expect, it } from 'vitest';
import { commentsLabel, issueSubject, isSystem, personOptions } from './issue-text.ts';

describe('issue text', () => {
  it('says what the issue is about within its client', () => {
    const server = { id: 's1', label: 'staging' };
    const app = { id: 'a1', name: 'web' };
    expect(issueSubject({ server, app })).toBe('web on staging');
    expect(issueSubject({ server, app: null })).toBe('staging');
    expect(issueSubject({ server: null, app })).toBe('web');
    expect(issueSubject({ server: null, app: null })).toBe('');
  });

  it('tells the system from a person', () => {
    expect(isSystem({ id: null })).toBe(true);
    expect(isSystem({ id: 'u1' })).toBe(false);
  });

  it('counts comments', () => {
    expect(commentsLabel(0)).toBe('No comments');
    expect(commentsLabel(1)).toBe('1 comment');
    expect(commentsLabel(12)).toBe('12 comments');
  });

  it('names assignees, telling two of one name apart by email', () => {
    expect(
      personOptions([
        { id: 'u1', name: 'Ada', email: 'ada@a.test' },
        { id: 'u2', name: 'Sam', email: 'sam1@a.test' },
        { id: 'u3', name: 'Sam', email: 'sam2@a.test' },
        { id: 'u4', name: '', email: 'anon@a.test' },
      ]),
    ).toEqual([
      { value: 'u1', label: 'Ada' },
      { value: 'u2', label: 'Sam (sam1@a.test)' },
      { value: 'u3', label: 'Sam (sam2@a.test)' },
      { value: 'u4', label: 'anon@a.test' },
    ]);
  });
});
