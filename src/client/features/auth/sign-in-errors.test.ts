import { describe, expect, it } from 'vitest';
import { signInErrorMessage } from './sign-in-errors.ts';

describe('signInErrorMessage', () => {
  it('explains a refused address without echoing the URL', () => {
    expect(signInErrorMessage('EMAIL_NOT_ALLOWED')).toMatch(
      /is not allowed to sign in to Clients Manager/,
    );
  });
  it('treats unknown codes (tampered state, expired flow) as a restart', () => {
    expect(signInErrorMessage('state_mismatch')).toMatch(/did not complete/);
    expect(signInErrorMessage('<script>')).toMatch(/did not complete/);
  });
  it('says nothing without a code', () => {
    expect(signInErrorMessage(null)).toBeNull();
  });
});
