import { describe, expect, it } from 'vitest';
import { codeErrorMessage, plainCode } from './second-factor-errors.ts';

describe('codeErrorMessage', () => {
  it('says the same for a wrong authenticator code and a wrong backup code', () => {
    const totp = codeErrorMessage({ status: 401, code: 'INVALID_CODE', message: 'Invalid code' });
    const backup = codeErrorMessage({
      status: 401,
      code: 'INVALID_BACKUP_CODE',
      message: 'Invalid backup code',
    });
    expect(totp).toBe('That code is not right');
    expect(backup).toBe(totp);
  });

  it('asks to sign in again when the pending sign-in is over', () => {
    expect(codeErrorMessage({ status: 400, code: 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE' })).toMatch(
      /sign-in has ended/,
    );
  });

  it('leaves every other failure to the usual wording', () => {
    expect(codeErrorMessage({ status: 429 })).toBeNull();
    expect(codeErrorMessage({ status: 500, message: 'Failed' })).toBeNull();
  });
});

describe('plainCode', () => {
  it('drops the spaces an app shows between digit groups', () => {
    expect(plainCode(' 123 456 ')).toBe('123456');
  });
});
