import { describe, expect, it } from 'vitest';
import {
  emptyServerFormValues,
  formValuesToInput,
  toFormErrors,
  validateServerForm,
} from './server-form-values.ts';

describe('server form values', () => {
  const filled = {
    ...emptyServerFormValues('client-1'),
    label: 'staging',
    host: 'staging.example.com',
    port: '2222',
    username: 'deploy',
  };

  it('sends the port as a number and no credential as null', () => {
    expect(formValuesToInput(filled)).toEqual({
      clientId: 'client-1',
      label: 'staging',
      host: 'staging.example.com',
      port: 2222,
      username: 'deploy',
      uiDir: '',
      private: true,
      credentialId: null,
    });
    expect(formValuesToInput({ ...filled, credentialId: 'cred-1' }).credentialId).toBe('cred-1');
    // An empty Port is the default, which the field shows as its placeholder.
    expect(formValuesToInput({ ...filled, port: ' ' }).port).toBe(22);
  });

  it('gives the schema messages on the fields, and asks for a client', () => {
    expect(validateServerForm(filled)).toEqual({});
    const errors = validateServerForm({
      ...filled,
      clientId: '',
      label: '',
      host: '-oProxyCommand=x',
      port: 'abc',
    });
    expect(errors).toMatchObject({
      clientId: 'Choose the client',
      label: 'Enter a label, such as production or staging',
      host: 'Must be a host name or IP address',
      port: 'Must be a number',
    });
  });

  it('puts the API field errors on their fields and says the others above the form', () => {
    expect(toFormErrors({ host: 'Bad host', version: 'Stale' })).toEqual({
      errors: { host: 'Bad host' },
      unplaced: ['version: Stale'],
    });
  });
});
