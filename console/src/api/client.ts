/**
 * The console's only door to Parley's REST API (reference: the OpenAPI
 * document, see docs/README.md). Credentials travel in the `X-User-Id` / `X-Auth-Token` headers,
 * never in a URL. Every failure becomes an `ApiError` carrying the server's
 * `error` text, `errorType` and `details`, which the pages show as they are.
 */
export interface Credentials {
  userId: string;
  authToken: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorType?: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Query = Record<string, string | number | boolean | string[] | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Query;
  body?: unknown;
}

/** `?a=1&b[]=x&b[]=y` the way the server (qs) reads it; undefined values are left out. */
export function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(`${key}[]`, item);
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export interface ApiClientOptions {
  /** Origin of the server; '' = the page's own. */
  baseUrl?: string;
  credentials: () => Credentials | null;
  /** Called when the server answers 401 to an authenticated request (session ended). */
  onUnauthorized?: () => void;
  fetchImpl?: typeof fetch;
}

export type ApiClient = <T>(path: string, options?: RequestOptions) => Promise<T>;

export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  return async function api<T>(path: string, request: RequestOptions = {}): Promise<T> {
    const method = request.method ?? 'GET';
    const headers: Record<string, string> = { accept: 'application/json' };
    const creds = options.credentials();
    if (creds) {
      headers['x-user-id'] = creds.userId;
      headers['x-auth-token'] = creds.authToken;
    }
    let body: string | FormData | undefined;
    // A file upload (multipart): the browser sets the content type with its boundary.
    if (request.body instanceof FormData) body = request.body;
    else if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    let res: Response;
    try {
      res = await doFetch(`${options.baseUrl ?? ''}/api/v1/${path}${queryString(request.query)}`, { method, headers, body });
    } catch {
      throw new ApiError(0, 'The server cannot be reached. Check your connection.');
    }
    let payload: Record<string, unknown> = {};
    try {
      payload = (await res.json()) as Record<string, unknown>;
    } catch {
      // Not JSON (a proxy error page): the status speaks for itself.
    }
    if (!res.ok || payload.success === false) {
      if (res.status === 401 && creds) options.onUnauthorized?.();
      const text = typeof payload.error === 'string' ? payload.error : typeof payload.message === 'string' ? payload.message : `Request failed (${res.status})`;
      throw new ApiError(res.status, text, typeof payload.errorType === 'string' ? payload.errorType : undefined, payload.details);
    }
    return payload as T;
  };
}
