/**
 * One DDP connection (one WebSocket). Integrators read `session`, `userId`, the proven visitor tokens and
 * register close hooks; the rest is the layer's bookkeeping, kept small because a process holds tens of
 * thousands of idle connections (sets and arrays are allocated on first use).
 */
import type { WebSocket } from 'ws';
import { stringifyEJSON } from './ejson.js';

/** A live stream subscription of a connection (see `streams.ts`). */
export interface DdpSubscription {
  /** The client's subscription id. */
  readonly id: string;
  readonly streamName: string;
  readonly eventName: string;
  /** The normalised `extra` of the sub's options (an empty frozen object when the client sent none). */
  readonly extra: Readonly<Record<string, unknown>>;
  readonly connection: DdpConnection;
  /** @internal true once `ready` was sent, false again after unsub/close. */
  active: boolean;
}

export type CloseHook = (connection: DdpConnection) => void | Promise<void>;

/** What the connection needs from its server (implemented by `DdpServer`). */
export interface ConnectionOwner {
  /** Called once when the connection ends, whichever side ended it. */
  connectionEnded(connection: DdpConnection): void;
  visitorTokenAdded(token: string): void;
  logError(error: unknown, message: string): void;
  readonly maxBufferedBytes: number;
}

export class DdpConnection {
  /** The session id sent in `connected` ('' until the client's `connect`). */
  session = '';
  /** The logged-in user (at most one per connection), set by the integrator's `login` method. */
  userId: string | null = null;
  /** The peer's address as the socket saw it. */
  readonly clientAddress: string;

  /** @internal */ connected = false;
  /** @internal */ ended = false;
  /** @internal */ lastSeen: number;
  /** @internal when the server's keep-alive ping was sent (0: not pinged since the last frame). */ pingSentAt = 0;
  /** @internal */ methodsInFlight = 0;
  /** @internal subscriptions by client id, including ones still waiting for allowSubscribe. */
  subscriptions: Map<string, DdpSubscription> | undefined;
  /** @internal deliveries waiting for an async allowDeliver, so pushes keep their order. */
  deliveryTail: Promise<void> | undefined;
  /** @internal bytes of frames waiting in `deliveryTail`; they count against `maxBufferedBytes` too. */
  pendingBytes = 0;

  #tokens: Set<string> | undefined;
  #closeHooks: CloseHook[] | undefined;

  constructor(
    /** @internal */ readonly socket: WebSocket,
    private readonly owner: ConnectionOwner,
    clientAddress: string | undefined,
    now: number,
  ) {
    this.clientAddress = clientAddress ?? '';
    this.lastSeen = now;
  }

  /** True while the socket is open. */
  get open(): boolean {
    return !this.ended;
  }

  /** Remembers a visitor token this connection proved (by a subscription or `livechat:setUpConnection`). */
  addVisitorToken(token: string): void {
    if (this.ended) return;
    this.#tokens ??= new Set();
    if (this.#tokens.has(token)) return;
    this.#tokens.add(token);
    this.owner.visitorTokenAdded(token);
  }

  hasVisitorToken(token: string): boolean {
    return this.#tokens?.has(token) ?? false;
  }

  get visitorTokens(): ReadonlySet<string> {
    return this.#tokens ?? EMPTY_SET;
  }

  /**
   * Runs `hook` once when the connection closes (after its subscriptions are gone and it no longer
   * counts in `DdpServer.visitorConnectionCount`). Registered on a closed connection, it runs at once.
   */
  onClose(hook: CloseHook): void {
    if (this.ended) {
      void runHook(hook, this, (error) => this.owner.logError(error, 'DDP close hook failed'));
      return;
    }
    (this.#closeHooks ??= []).push(hook);
  }

  /** Pushes one stream event to this connection only (e.g. a queue position right after `ready`). */
  pushChanged(streamName: string, eventName: string, args: unknown[]): void {
    this.sendText(changedFrame(streamName, eventName, args));
  }

  /** Closes the socket with a WebSocket close code. */
  close(code = 1000, reason = ''): void {
    if (this.ended) return;
    this.socket.close(code, reason);
    this.end();
  }

  /** @internal */
  send(frame: object): void {
    this.sendText(stringifyEJSON(frame));
  }

  /** @internal Sends an already serialised frame; a consumer whose buffer grows past the bound is cut off. */
  sendText(text: string): void {
    if (this.ended) return;
    this.socket.send(text);
    if (this.socket.bufferedAmount + this.pendingBytes > this.owner.maxBufferedBytes) this.terminate();
  }

  /** @internal Queues `bytes` more for delivery; false (and the socket is cut off) when over the bound. */
  reserve(bytes: number): boolean {
    if (this.ended) return false;
    this.pendingBytes += bytes;
    if (this.socket.bufferedAmount + this.pendingBytes <= this.owner.maxBufferedBytes) return true;
    this.terminate();
    return false;
  }

  /** @internal A slow consumer: no close handshake behind a full buffer. */
  terminate(): void {
    this.socket.terminate();
    this.end();
  }

  /** @internal Marks the connection ended (idempotent) and lets the server clean up and run the hooks. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.owner.connectionEnded(this);
  }

  /** @internal */
  takeCloseHooks(): CloseHook[] {
    const hooks = this.#closeHooks ?? [];
    this.#closeHooks = undefined;
    return hooks;
  }
}

const EMPTY_SET: ReadonlySet<string> = new Set();

export function changedFrame(streamName: string, eventName: string, args: unknown[]): string {
  return stringifyEJSON({ msg: 'changed', collection: streamName, id: 'id', fields: { eventName, args } });
}

export async function runHook(hook: CloseHook, connection: DdpConnection, onError?: (error: unknown) => void): Promise<void> {
  try {
    await hook(connection);
  } catch (error) {
    onError?.(error);
  }
}
