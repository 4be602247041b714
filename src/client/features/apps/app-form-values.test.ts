import { describe, expect, it } from 'vitest';
import type { App } from '#shared/apps.ts';
import {
  appToFormValues,
  emptyAppFormValues,
  formValuesToInput,
  toFormErrors,
  validateAppForm,
} from './app-form-values.ts';

const good = { ...emptyAppFormValues('c1'), name: 'web', serverId: 's1' };

describe('validateAppForm', () => {
  it('accepts a name and a server, the rest left to their defaults', () => {
    expect(validateAppForm(good)).toEqual({});
    expect(formValuesToInput(good)).toEqual({
      clientId: 'c1',
      name: 'web',
      serverId: 's1',
      directory: '',
      domains: [],
      command: null,
    });
  });

  it('names each field in error with the API schema’s words', () => {
    const errors = validateAppForm({
      ...emptyAppFormValues(),
      domains: ['https://ok.example', 'ftp://bad.example'],
      command: 'deploy "{accessToken}"',
    });
    expect(errors.clientId).toBe('Choose the client');
    expect(errors.name).toBe('Enter a name, such as web or api');
    expect(errors.serverId).toBe('Choose the server it runs on');
    expect(errors['domains.1']).toBe('Must be an http:// or https:// URL');
    expect(errors['domains.0']).toBeUndefined();
    expect(errors.command).toMatch(
      /^The command placeholder \{accessToken\} must stand outside quotes/,
    );
  });

  it('sends a blank command as null: the default template', () => {
    expect(formValuesToInput({ ...good, command: '   ' }).command).toBeNull();
    expect(formValuesToInput({ ...good, command: ' echo hi ' }).command).toBe('echo hi');
  });
});

describe('toFormErrors', () => {
  it('puts field errors on their inputs and says the others above the form', () => {
    expect(
      toFormErrors({ name: 'Too long', 'domains.3': 'Bad', version: 'Must be a number' }),
    ).toEqual({
      errors: { name: 'Too long', 'domains.3': 'Bad' },
      unplaced: ['version: Must be a number'],
    });
  });
});

describe('appToFormValues', () => {
  it('shows a default command and directory as empty fields, a lost server as none chosen', () => {
    const app = {
      id: 'a1',
      client: { id: 'c1', name: 'Co', code: 'CO' },
      server: null,
      name: 'web',
      directory: '',
      effectiveDirectory: '/srv/web',
      domains: ['https://co.example'],
      command: null,
      effectiveCommand: 'cd {uiDir} && pro-deploy run',
      lastRun: null,
      createdAt: '2026-11-26T12:00:00.000Z',
      updatedAt: '2026-11-26T12:00:00.000Z',
      version: 3,
    } satisfies App;
    expect(appToFormValues(app)).toEqual({
      clientId: 'c1',
      name: 'web',
      serverId: '',
      directory: '',
      domains: ['https://co.example'],
      command: '',
    });
  });
});
