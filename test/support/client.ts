/**
 * A tiny API client for tests: over `app.inject` (no port), or over HTTP to a
 * live server when given a base URL, so the same tests can run against either.
 */
import type { App } from '../../src/http/types.js';

export interface Credentials {
  userId: string;
  authToken: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean>;
  /** A JSON value (serialized) or a raw string sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  auth?: Credentials;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined when the body is not JSON). */
  body: T;
  text: string;
}

/** Every response body a client saw, for the secrets scan. */
export const seenBodies: string[] = [];

export class ApiClient {
  constructor(private readonly target: App | string) {}

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.auth) {
      headers['x-user-id'] = options.auth.userId;
      headers['x-auth-token'] = options.auth.authToken;
    }
    let payload: string | undefined;
    if (options.body !== undefined) {
      payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const qs = options.query
      ? '?' + new URLSearchParams(Object.entries(options.query).map(([k, v]): [string, string] => [k, String(v)])).toString()
      : '';
    const url = path + qs;
    let result: Omit<ApiResponse<T>, 'body'>;
    if (typeof this.target === 'string') {
      const res = await fetch(this.target + url, { method, headers, body: payload });
      result = { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
    } else {
      const res = await this.target.inject({ method: method as 'GET', url, headers, payload });
      result = { status: res.statusCode, headers: res.headers as ApiResponse['headers'], text: res.body };
    }
    seenBodies.push(result.text);
    let body: T;
    try {
      body = JSON.parse(result.text) as T;
    } catch {
      body = undefined as T;
    }
    return { ...result, body };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }

  post<T = any>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) {
    return this.request<T>('POST', path, { ...options, body });
  }

  put<T = any>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) {
    return this.request<T>('PUT', path, { ...options, body });
  }

  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}
