/**
 * A small JSON client for a server on a real port (child processes): `call` and
 * `login`. Bodies go through the secrets scan (`serverFetch`). In-process tests use
 * `TestApp.api` (test/support/client.ts) instead.
 */
import { serverFetch } from './server-process.js';

/** The seeded admin (test/support/app.ts uses the same password). */
export const ADMIN = { user: 'admin', password: 'admin-Secret-1' };

export interface JsonResponse {
  status: number;
  body: any;
  text: string;
}

/** A JSON request to `url` + `path` (the body serialized when given). */
export async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<JsonResponse> {
  const { status, body: parsed, text } = await serverFetch(`${url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  return { status, body: parsed, text };
}

/** Logs in and returns the REST auth headers (`x-user-id`, `x-auth-token`); anything but 200 throws. */
export async function login(url: string, user: string, password: string): Promise<Record<string, string>> {
  const res = await call(url, 'POST', '/api/v1/login', { user, password });
  if (res.status !== 200) throw new Error(`login ${user}: ${res.status} ${res.text}`);
  return { 'x-user-id': res.body.data.userId, 'x-auth-token': res.body.data.authToken };
}
