import { describe, expect, it } from 'vitest';
import type { Issue } from '#shared/issues.ts';
import {
  emptyIssueFormValues,
  formValuesToCreate,
  formValuesToUpdate,
  issueToFormValues,
  toFormErrors,
  validateIssueForm,
} from './issue-form-values.ts';

const issue: Issue = {
  id: 'i1',
  client: { id: 'c1', name: 'Acme', code: 'ACME' },
  server: { id: 's1', label: 'staging' },
  app: null,
  kind: 'problem',
  state: 'open',
  title: 'Disk full',
  text: 'df says 100%',
  author: { id: 'u1', name: 'Grace' },
  assignee: { id: 'u2', name: 'Ada' },
  problem: null,
  commentCount: 0,
  createdAt: '2026-11-26T10:00:00.000Z',
  updatedAt: '2026-11-26T10:00:00.000Z',
  resolvedAt: null,
  resolvedBy: null,
  version: 3,
};

describe('issue form values', () => {
  it('starts as a note of the given client, about nothing in particular', () => {
    expect(formValuesToCreate(emptyIssueFormValues('c1'))).toEqual({
      clientId: 'c1',
      serverId: null,
      appId: null,
      kind: 'note',
      title: '',
      text: '',
      assigneeId: null,
    });
  });

  it('edits an issue as it is and sends the version it was opened at', () => {
    const values = issueToFormValues(issue);
    expect(values).toEqual({
      clientId: 'c1',
      serverId: 's1',
      appId: '',
      kind: 'problem',
      title: 'Disk full',
      text: 'df says 100%',
      assigneeId: 'u2',
    });
    expect(formValuesToUpdate({ ...values, assigneeId: '' }, issue.version)).toEqual({
      serverId: 's1',
      appId: null,
      kind: 'problem',
      title: 'Disk full',
      text: 'df says 100%',
      assigneeId: null,
      version: 3,
    });
  });

  it('says what is wrong next to the field, with the messages the API gives', () => {
    expect(validateIssueForm(emptyIssueFormValues())).toEqual({
      clientId: 'Choose the client',
      title: 'Enter a title',
    });
    expect(validateIssueForm({ ...emptyIssueFormValues('c1'), title: '   ' })).toEqual({
      title: 'Enter a title',
    });
    expect(validateIssueForm({ ...emptyIssueFormValues('c1'), title: 'Fine' })).toEqual({});
    expect(
      validateIssueForm({ ...emptyIssueFormValues('c1'), title: 'x'.repeat(201) }).title,
    ).toMatch(/at most 200/);
  });

  it('places the API field errors it can and lists the others', () => {
    expect(toFormErrors({ title: 'Enter a title', version: 'Must be a number' })).toEqual({
      errors: { title: 'Enter a title' },
      unplaced: ['version: Must be a number'],
    });
  });
});
