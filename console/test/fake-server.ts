/** A fetch stand-in for component tests: `METHOD path` → handler; every call is recorded. */
export interface FakeCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

/** A handler answers at once, or later through a promise (a response held back). */
type Handler = (call: FakeCall) => { status?: number; body: unknown } | unknown;

export function fakeServer(routes: Record<string, Handler>) {
  const calls: FakeCall[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://console.test');
    const path = url.pathname.replace(/^\/api\/v1\//, '');
    const method = init?.method ?? 'GET';
    const call: FakeCall = {
      method,
      path,
      query: url.searchParams,
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: init?.body instanceof FormData ? init.body : init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const handler = routes[`${method} ${path}`];
    if (!handler) {
      return new Response(JSON.stringify({ success: false, status: 'error', error: 'API endpoint does not exist' }), { status: 404 });
    }
    const out = (await handler(call)) as { status?: number; body?: unknown };
    const status = out && typeof out === 'object' && 'status' in out && typeof out.status === 'number' ? out.status : 200;
    const body = out && typeof out === 'object' && 'body' in out ? out.body : out;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { fetchImpl, calls };
}
