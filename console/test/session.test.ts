import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, queryString } from '../src/api/client.js';
import { clearSession, loadSession, login, saveSession, SESSION_KEY } from '../src/auth/session.js';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('REST client', () => {
  it('sends credentials as headers, never in the URL, and reads the error envelope', async () => {
    const fetchImpl = vi.fn(async () => jsonResponse(400, { success: false, error: 'Inquiry already taken [error-inquiry-taken]', errorType: 'error-inquiry-taken' }));
    const api = createApiClient({ credentials: () => ({ userId: 'U1', authToken: 'T0k3n' }), fetchImpl });
    const error = await api('livechat/inquiries.take', { method: 'POST', body: { inquiryId: 'i1' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Inquiry already taken [error-inquiry-taken]');
    expect((error as ApiError).errorType).toBe('error-inquiry-taken');
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/livechat/inquiries.take');
    expect(url).not.toContain('T0k3n');
    expect(init.headers).toMatchObject({ 'x-user-id': 'U1', 'x-auth-token': 'T0k3n', 'content-type': 'application/json' });
    expect(init.body).toBe('{"inquiryId":"i1"}');
  });

  it('ends the session on a 401 to an authenticated request', async () => {
    const onUnauthorized = vi.fn();
    const api = createApiClient({
      credentials: () => ({ userId: 'U1', authToken: 't' }),
      onUnauthorized,
      fetchImpl: async () => jsonResponse(401, { success: false, status: 'error', error: 'You must be logged in to do this.', message: 'You must be logged in to do this.' }),
    });
    await expect(api('me')).rejects.toThrow('You must be logged in to do this.');
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('says the server cannot be reached when fetch fails', async () => {
    const api = createApiClient({ credentials: () => null, fetchImpl: async () => Promise.reject(new TypeError('Failed to fetch')) });
    const error = (await api('me').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(0);
    expect(error.message).toMatch(/cannot be reached/);
  });

  it('writes query strings the way qs reads them', () => {
    expect(queryString({ open: false, agents: ['a', 'b'], roomName: 'Vé ra', skip: undefined })).toBe('?open=false&agents%5B%5D=a&agents%5B%5D=b&roomName=V%C3%A9+ra');
    expect(queryString({})).toBe('');
  });
});

describe('login flow', () => {
  const me = { _id: 'U1', username: 'ann', roles: ['user'] };

  it('logs in with username or email and a password', async () => {
    const fetchImpl = vi.fn(async () => jsonResponse(200, { status: 'success', data: { userId: 'U1', authToken: 'tok', me }, success: true }));
    const api = createApiClient({ credentials: () => null, fetchImpl });
    const outcome = await login(api, { user: ' ann@example.com ', password: 'pw' });
    expect(outcome).toEqual({ kind: 'ok', creds: { userId: 'U1', authToken: 'tok' }, me });
    expect(JSON.parse((fetchImpl.mock.calls[0] as unknown as [string, RequestInit])[1].body as string)).toEqual({ user: 'ann@example.com', password: 'pw' });
  });

  it('asks for a code on totp-required, then sends it as `code`', async () => {
    const fetchImpl = vi
      .fn()
      .mockResolvedValueOnce(jsonResponse(401, { success: false, error: 'totp-required', message: 'TOTP Required [totp-required]', errorType: 'totp-required', details: { method: 'totp' } }))
      .mockResolvedValueOnce(jsonResponse(200, { status: 'success', data: { userId: 'U1', authToken: 'tok', me }, success: true }));
    const api = createApiClient({ credentials: () => null, fetchImpl });
    const first = await login(api, { user: 'ann', password: 'pw' });
    expect(first).toEqual({ kind: 'second-factor', method: 'totp', message: 'Enter the code from your authenticator app.' });
    const second = await login(api, { user: 'ann', password: 'pw', code: ' 123456 ' });
    expect(second.kind).toBe('ok');
    expect(JSON.parse(fetchImpl.mock.calls[1]![1].body as string)).toEqual({ user: 'ann', password: 'pw', code: '123456' });
  });

  it('turns the 401 into a plain message', async () => {
    const api = createApiClient({
      credentials: () => null,
      fetchImpl: async () => jsonResponse(401, { success: false, status: 'error', error: 'Unauthorized', message: 'Unauthorized' }),
    });
    await expect(login(api, { user: 'ann', password: 'bad' })).rejects.toThrow('Wrong username, email or password.');
  });

  it('keeps the session in storage and forgets it on clear; junk is no session', () => {
    saveSession({ userId: 'U1', authToken: 'tok' });
    expect(loadSession()).toEqual({ userId: 'U1', authToken: 'tok' });
    clearSession();
    expect(loadSession()).toBeNull();
    localStorage.setItem(SESSION_KEY, '{not json');
    expect(loadSession()).toBeNull();
    localStorage.setItem(SESSION_KEY, JSON.stringify({ userId: 1 }));
    expect(loadSession()).toBeNull();
  });
});
