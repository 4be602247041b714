import { describe, expect, it } from 'vitest';
import { ApiRequestError } from './api-client.ts';
import { sessionAfter } from './session.ts';

describe('sessionAfter', () => {
  it('reads a refusal of the session from an API error', () => {
    expect(sessionAfter(new ApiRequestError(401, 'Sign in to continue'))).toEqual({
      status: 'signed-out',
    });
    for (const code of ['ACCOUNT_DISABLED', 'EMAIL_NOT_ALLOWED']) {
      expect(sessionAfter(new ApiRequestError(403, 'No', {}, code))).toEqual({
        status: 'refused',
        code,
      });
    }
  });

  it('leaves other errors to the screen that made the call', () => {
    expect(sessionAfter(new ApiRequestError(403, 'Cross-site request refused'))).toBeNull();
    expect(sessionAfter(new ApiRequestError(403, 'No', {}, 'SOMETHING_ELSE'))).toBeNull();
    expect(sessionAfter(new ApiRequestError(409, 'Changed'))).toBeNull();
    expect(sessionAfter(new Error('network'))).toBeNull();
  });
});
