import { describe, expect, it } from 'vitest';
import { authFieldError } from './auth-field-error.ts';

describe('authFieldError', () => {
  it('takes a refusal worded `field: message` for a field of the form', () => {
    expect(
      authFieldError('email: This invitation is for a@example.test', ['name', 'email']),
    ).toEqual({ field: 'email', message: 'This invitation is for a@example.test' });
  });

  it('leaves any other refusal to the form', () => {
    expect(authFieldError('password: Too short', ['name', 'email'])).toBeNull();
    expect(authFieldError('Invalid email or password', ['email'])).toBeNull();
    expect(authFieldError(undefined, ['email'])).toBeNull();
  });
});
