/**
 * A raw WebSocket DDP client for protocol tests: every frame the server sends is queued, and tests take
 * the frames they expect (`next`) in order, so nothing depends on timing.
 */
import WebSocket from 'ws';
import type { App } from '../../src/http/types.js';
import { scanned } from './server-process.js';

export interface Closed {
  code: number;
  reason: string;
}

/** Listens on an ephemeral port (once) and returns the DDP URL of the app. */
export async function ddpUrl(app: App): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('app is not listening on TCP');
  return `ws://127.0.0.1:${address.port}/websocket`;
}

export class DdpSocket {
  readonly frames: any[] = [];
  readonly closed: Promise<Closed>;
  #waiters: Array<() => void> = [];
  #closedWith: Closed | undefined;
  #ids = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      // Every received frame goes through the secrets scan (test/setup/secrets-scan.ts).
      this.frames.push(JSON.parse(scanned(String(data))));
      this.#wake();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.#closedWith = { code, reason: String(reason) };
        resolve(this.#closedWith);
        this.#wake();
      });
    });
    ws.on('error', () => {});
  }

  /** Opens a socket (not yet DDP-connected); the server's `server_id` frame is left in the queue. */
  static async open(url: string): Promise<DdpSocket> {
    // Listen before the socket opens: the server's first frame can arrive in the same tick as `open`.
    const socket = new DdpSocket(new WebSocket(url));
    await new Promise<void>((resolve, reject) => {
      socket.ws.once('open', () => resolve());
      socket.ws.once('error', reject);
    });
    return socket;
  }

  /** Opens a socket and completes the DDP handshake; returns it with its session id. */
  static async connect(url: string): Promise<DdpSocket & { session: string }> {
    const socket = await DdpSocket.open(url);
    await socket.next((f) => f.msg === 'server_id');
    socket.send({ msg: 'connect', version: '1', support: ['1', 'pre2', 'pre1'] });
    const connected = await socket.next((f) => f.msg === 'connected');
    return Object.assign(socket, { session: connected.session as string });
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  send(frame: unknown): void {
    this.ws.send(JSON.stringify(frame));
  }

  sendRaw(data: string | Buffer, options: { binary?: boolean } = {}): void {
    this.ws.send(data, { binary: options.binary ?? false });
  }

  newId(): string {
    return `t${++this.#ids}`;
  }

  /**
   * Removes and returns the first queued frame matching `predicate` (any frame by default), waiting for
   * it up to `timeoutMs`; rejects if the socket closes or time runs out first.
   */
  async next(predicate: (frame: any) => boolean = () => true, timeoutMs = 10_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.frames.findIndex(predicate);
      if (index !== -1) return this.frames.splice(index, 1)[0];
      if (this.#closedWith) throw new Error(`socket closed (${this.#closedWith.code}) before the expected frame; queued: ${JSON.stringify(this.frames)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no expected frame within ${timeoutMs} ms; queued: ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Calls a method; resolves with its `result` frame once the matching `updated` frame arrived too. */
  async call(method: string, params: unknown[] = []): Promise<any> {
    const id = this.newId();
    this.send({ msg: 'method', method, params, id });
    const result = await this.next((f) => f.msg === 'result' && f.id === id);
    await this.next((f) => f.msg === 'updated' && Array.isArray(f.methods) && f.methods.includes(id));
    return result;
  }

  /** Subscribes; resolves with the `ready` or `nosub` frame answering it. */
  async sub(name: string, params: unknown[], id = this.newId()): Promise<any> {
    this.send({ msg: 'sub', id, name, params });
    return this.next((f) => (f.msg === 'ready' && f.subs?.includes(id)) || (f.msg === 'nosub' && f.id === id));
  }

  /** A round trip: every frame the server sent before answering this ping is queued when it resolves. */
  async barrier(): Promise<void> {
    const id = this.newId();
    this.send({ msg: 'ping', id });
    await this.next((f) => f.msg === 'pong' && f.id === id);
  }

  close(): void {
    this.ws.close();
  }
}
