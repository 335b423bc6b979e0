/**
 * A webhook receiver on loopback (`node:http`) for the DESK.md D9 tests: it keeps every request (headers, raw
 * body, parsed body) and answers as `respond` says — a status and body, or never (`hang`) until released.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
  at: number;
}

export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  respond: (hook: ReceivedHook) => Answer = () => ({ status: 200, body: '' });
  private readonly hanging = new Set<ServerResponse>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          // kept raw
        }
        const hook = { headers: req.headers, raw, body, at: Date.now() };
        receiver.received.push(hook);
        const answer = receiver.respond(hook);
        if (answer === 'hang') {
          receiver.hanging.add(res);
          res.on('close', () => receiver.hanging.delete(res));
          return;
        }
        res.writeHead(answer.status, { 'Content-Type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Requests of one event type, in arrival order. */
  ofType(type: string): ReceivedHook[] {
    return this.received.filter((h) => h.headers['x-parley-event'] === type);
  }

  /** Answers every hanging request with `status`. */
  release(status = 200): void {
    for (const res of this.hanging) {
      res.writeHead(status);
      res.end();
    }
    this.hanging.clear();
  }

  reset(): void {
    this.received.length = 0;
    this.respond = () => ({ status: 200, body: '' });
  }

  async close(): Promise<void> {
    this.release(503);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** What a receiver does (docs/webhooks.md): HMAC-SHA256 of "<timestamp>.<raw body>" with the secret, compared in constant time. */
export function signatureValid(hook: ReceivedHook, secret: string): boolean {
  const timestamp = hook.headers['x-parley-timestamp'];
  const given = hook.headers['x-parley-signature'];
  if (typeof timestamp !== 'string' || typeof given !== 'string') return false;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${hook.raw}`).digest('hex')}`;
  return expected.length === given.length && timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}
