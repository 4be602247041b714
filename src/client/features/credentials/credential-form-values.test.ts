import { describe, expect, it } from 'vitest';
import { SHORT_SECRET_MESSAGE } from '#shared/secret-length.ts';
import {
  emptySecretValues,
  secretInput,
  toFormErrors,
  validateSecret,
} from './credential-form-values.ts';

describe('credential form values', () => {
  it('sends only the fields of the kind and choice made', () => {
    const values = { ...emptySecretValues, secret: 's', privateKey: 'k', passphrase: 'p' };
    expect(secretInput('ssh-key', values)).toEqual({ generate: 'ed25519' });
    expect(secretInput('ssh-key', { ...values, keyType: 'rsa' })).toEqual({ generate: 'rsa' });
    expect(secretInput('ssh-key', { ...values, keySource: 'paste' })).toEqual({
      privateKey: 'k',
      passphrase: 'p',
    });
    expect(secretInput('ssh-key', { ...values, keySource: 'paste', passphrase: '' })).toEqual({
      privateKey: 'k',
    });
    expect(secretInput('password', values)).toEqual({ secret: 's' });
    expect(secretInput('token', values)).toEqual({ secret: 's' });
  });

  it('asks for what the kind needs before sending', () => {
    expect(validateSecret('ssh-key', emptySecretValues)).toEqual({});
    expect(validateSecret('ssh-key', { ...emptySecretValues, keySource: 'paste' })).toEqual({
      privateKey: 'Paste a private key',
    });
    expect(validateSecret('token', emptySecretValues)).toEqual({ secret: 'Enter the secret' });
    expect(validateSecret('password', { ...emptySecretValues, secret: 'abc' })).toEqual({
      secret: SHORT_SECRET_MESSAGE,
    });
    expect(validateSecret('password', { ...emptySecretValues, secret: 'abcd' })).toEqual({});
  });

  it("puts the API's field errors where the form shows them", () => {
    expect(toFormErrors({ generate: 'Bad type', privateKey: 'Not a key', x: 'y' })).toEqual({
      errors: { keyType: 'Bad type', privateKey: 'Not a key' },
      unplaced: ['x: y'],
    });
  });
});
