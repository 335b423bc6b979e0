import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/client.js';
import { errorCode, errorText, isChatGone } from '../src/lib/errors.js';

const api = (status: number, message: string, errorType?: string) => new ApiError(status, message, errorType);

describe('errorText: a sentence for every failure, never a raw code', () => {
  it.each([
    [api(400, '[error-invalid-user]', 'error-invalid-user'), 'agents', 'No user with that username. Create the user first on the Users page.'],
    [api(400, '[error-invalid-user]', 'error-invalid-user'), 'managers', 'No user with that username. Create the user first on the Users page.'],
    [api(400, 'User not found. [error-invalid-user]', 'error-invalid-user'), 'users', 'That user does not exist (any more). Reload the page to see the current list.'],
    [
      api(400, 'The required "roomId" or "roomName" param provided does not match any channel [error-room-not-found]', 'error-room-not-found'),
      'chat',
      'This chat is no longer yours: it was transferred to someone else or closed.',
    ],
    [api(400, 'error-user-is-offline'), 'transfer', 'That agent is not available right now. Choose an available agent or a department.'],
    [api(400, 'room-closed'), 'close', 'This chat is already closed.'],
    [api(400, 'ann is already in use :( [error-field-unavailable]', 'error-field-unavailable'), 'users', '“ann” is already in use. Choose another one.'],
    [api(400, 'bad name! is not a valid username [error-input-is-not-a-valid-field]', 'error-input-is-not-a-valid-field'), 'users', 'That username is not valid. Use letters, digits, dots, dashes and underscores, without spaces.'],
    [api(400, 'Invalid email address [error-invalid-email]', 'error-invalid-email'), 'users', 'That e-mail address is not valid.'],
    [
      api(400, 'Leaving the app without an active admin is not allowed [error-action-not-allowed]', 'error-action-not-allowed'),
      'users',
      'You cannot remove or deactivate the last active administrator.',
    ],
    [api(403, 'User does not have the permissions required for this action [error-unauthorized]'), undefined, 'You do not have permission to do this. Ask an administrator.'],
    [api(400, "must have required property 'email' [invalid-params]", 'invalid-params'), 'users', "Something in the form is missing or not valid (must have required property 'email')."],
    [api(429, 'Error, too many requests. [error-too-many-requests]', 'error-too-many-requests'), undefined, 'Too many attempts. Wait a moment and try again.'],
    [api(500, 'Internal server error'), undefined, 'The server had a problem. Try again in a moment.'],
    [api(400, 'error-something-new'), undefined, 'The server refused this request. Try again, or reload the page.'],
    [api(400, 'department name is required [error-x-y]', 'error-x-y'), undefined, 'Department name is required.'],
    [api(0, 'The server cannot be reached. Check your connection.'), undefined, 'The server cannot be reached. Check your connection.'],
    [api(401, 'Wrong username, email or password.'), 'login', 'Wrong username, email or password.'],
    [new Error('boom'), undefined, 'Boom.'],
    ['weird', undefined, 'Something went wrong. Try again.'],
  ] as const)('%s (%s)', (error, context, expected) => {
    expect(errorText(error, context)).toBe(expected);
  });

  it('explains a password the policy refuses with its reason, without the code', () => {
    expect(errorText(api(400, 'Password must have at least one uppercase letter [error-password-policy-not-met-oneUppercase]', 'error-password-policy-not-met-oneUppercase'))).toBe(
      'The password is not strong enough: password must have at least one uppercase letter.',
    );
  });

  it('never shows a bracketed code', () => {
    for (const code of ['error-invalid-user', 'error-room-not-found', 'error-unknown-thing', 'invalid-params']) {
      expect(errorText(api(400, `Reason [${code}]`, code))).not.toMatch(/\[|error-|invalid-params/);
    }
  });
});

describe('errorCode and isChatGone', () => {
  it('reads the code from errorType, a trailing bracket or a bare code', () => {
    expect(errorCode({ message: 'x', errorType: 'a-b' })).toBe('a-b');
    expect(errorCode({ message: 'Reason [error-x]' })).toBe('error-x');
    expect(errorCode({ message: 'room-closed' })).toBe('room-closed');
    expect(errorCode({ message: 'Just words' })).toBeUndefined();
  });

  it('a chat is gone on 403 or room-not-found, not on other failures', () => {
    expect(isChatGone(api(403, 'User does not have the permissions required for this action [error-unauthorized]'))).toBe(true);
    expect(isChatGone(api(400, 'x [error-room-not-found]', 'error-room-not-found'))).toBe(true);
    expect(isChatGone(api(0, 'The server cannot be reached.'))).toBe(false);
    expect(isChatGone(api(500, 'Internal server error'))).toBe(false);
    expect(isChatGone(new Error('x'))).toBe(false);
    expect(isChatGone(null)).toBe(false);
  });
});
