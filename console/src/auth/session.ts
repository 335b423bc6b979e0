/**
 * The login session: `{userId, authToken}` in localStorage (so a reload keeps
 * it; never in a URL), removed on logout or when the server answers 401.
 * `login` speaks Rocket.Chat's REST login flow, including its second-factor
 * answer: a `totp-required` error means "ask for a code and send it as `code`".
 */
import { ApiError, type ApiClient, type Credentials } from '../api/client.js';
import type { LoginResult, Me } from '../api/types.js';

export const SESSION_KEY = 'parley-console.session';

export function loadSession(storage: Storage = localStorage): Credentials | null {
  try {
    const raw = storage.getItem(SESSION_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Credentials>;
    return typeof parsed.userId === 'string' && typeof parsed.authToken === 'string' ? { userId: parsed.userId, authToken: parsed.authToken } : null;
  } catch {
    return null;
  }
}

export function saveSession(creds: Credentials, storage: Storage = localStorage): void {
  storage.setItem(SESSION_KEY, JSON.stringify(creds));
}

export function clearSession(storage: Storage = localStorage): void {
  storage.removeItem(SESSION_KEY);
}

export interface LoginInput {
  /** Username or email (the server tells them apart by the `@`). */
  user: string;
  password: string;
  /** The second-factor code, once the server asked for one. */
  code?: string;
}

export type LoginOutcome =
  | { kind: 'ok'; creds: Credentials; me: Me }
  | { kind: 'second-factor'; method: string; message: string };

function isSecondFactorRequest(error: ApiError): boolean {
  return error.errorType === 'totp-required' || error.message === 'totp-required' || /\[totp-required\]$/.test(error.message);
}

export async function login(api: ApiClient, input: LoginInput): Promise<LoginOutcome> {
  const body: Record<string, string> = { user: input.user.trim(), password: input.password };
  if (input.code) body.code = input.code.trim();
  try {
    const result = await api<LoginResult>('login', { method: 'POST', body });
    return { kind: 'ok', creds: { userId: result.data.userId, authToken: result.data.authToken }, me: result.data.me };
  } catch (error) {
    if (error instanceof ApiError && isSecondFactorRequest(error)) {
      const details = (error.details ?? {}) as { method?: string };
      const method = details.method ?? 'totp';
      return {
        kind: 'second-factor',
        method,
        message: method === 'email' ? 'Enter the code we sent to your email.' : 'Enter the code from your authenticator app.',
      };
    }
    if (error instanceof ApiError && error.status === 401) throw new ApiError(401, 'Wrong username, email or password.');
    throw error;
  }
}
