/**
 * The DDP server: accepts WebSockets on one path of an existing `http.Server` (ws in `noServer` mode on
 * the server's `upgrade` event, so REST and DDP share the port), speaks the server side of DDP 1 (the
 * contract, R1/R2), enforces the limits of R8 and runs the integrator's methods and streams.
 */
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Gauge, type Registry } from 'prom-client';
import sjson from 'secure-json-parse';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { newId } from '../../lib/ids.js';
import { endpointNotFound, serviceUnavailable, type ApiError } from '../../services/errors.js';
import { DdpConnection, runHook, type ConnectionOwner } from './connection.js';
import { decodeEJSONInPlace, stringifyEJSON } from './ejson.js';
import {
  internalServerError,
  matchFailed,
  methodNotFound,
  notAllowed,
  subscriptionNotFound,
  toMeteorError,
  tooManyRequests,
  type MeteorError,
} from './errors.js';
import { normaliseStreamParams, StreamRegistry, type StreamDefinition } from './streams.js';
import type { DdpSubscription } from './connection.js';
import { isPlainObject } from '../../lib/values.js';

export interface DdpLogger {
  error(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface DdpServerOptions {
  /** The upgrade path (`/websocket`); `<path>/` and any query string are accepted too. */
  path?: string;
  /** A connection silent this long gets `{"msg":"ping"}` (R2: 30 s). */
  pingIntervalMs?: number;
  /** …and is closed with 4000 when this long passes after that ping without any frame (R2: 30 s). */
  pingTimeoutMs?: number;
  /** Frames over this close the socket with 1009 (R8: 64 KiB). */
  maxPayloadBytes?: number;
  /** Subscriptions per connection, including ones being checked (R8: 200). */
  maxSubscriptions?: number;
  /** Method calls in flight per connection (R8: 20). */
  maxMethodsInFlight?: number;
  /** A socket whose send buffer grows past this is terminated (R8: 1 MiB). */
  maxBufferedBytes?: number;
  logger?: DdpLogger;
  /**
   * The client's address for a new connection (`connection.clientAddress`, e.g. for rate limits keyed by
   * IP). Default: the socket's peer address. Behind a reverse proxy, pass the same trust rule as REST's.
   */
  clientAddress?: (request: IncomingMessage) => string | undefined;
  /** prom-client registry for the `ddp_connections` and `ddp_subscriptions` gauges. */
  registry?: Registry;
  /**
   * Maps errors other than MeteorError and ApiError (e.g. the store's neutral errors) to the ApiError
   * REST would answer, so both doors fail alike; null: unexpected (logged, answered 500).
   */
  mapError?: (error: unknown) => ApiError | null;
}

export type MethodHandler<P> = (params: P, connection: DdpConnection) => unknown;

interface MethodEntry {
  handler: MethodHandler<never>;
  schema: TSchema | undefined;
  check: TypeCheck<TSchema> | undefined;
  /** With a `Type.Tuple` schema: how many leading params it checks (the rest are dropped), else undefined. */
  leading: number | undefined;
}

/** Options of `DdpServer.method`. */
export interface MethodOptions<S extends TSchema> {
  /** A TypeBox schema of the params array (e.g. a `Type.Tuple`); a mismatch is `400 Match failed`. */
  params: S;
  /**
   * The schema, a `Type.Tuple`, describes the *leading* params only, as Meteor methods take positional
   * arguments: the params are cut or padded (with `undefined`) to the tuple's length before the check, so a
   * client's extra trailing arguments (e.g. `loadHistory`'s last-seen date) are ignored and a missing optional
   * one is `undefined`. Without it the params must match the schema exactly.
   */
  leading?: boolean;
}

type Frame = Record<string, unknown>;

const SUPPORTED_VERSION = '1';
const SERVER_ID_FRAME = '{"msg":"server_id","server_id":"0"}';
const BAD_REQUEST_FRAME = '{"msg":"error","reason":"Bad request"}';
const CONNECTION = Symbol('ddp-connection');
const JSON_OPTIONS = { protoAction: 'remove', constructorAction: 'remove' } as const;
const silentLogger: DdpLogger = { error() {}, warn() {} };

type SocketWithConnection = WebSocket & { [CONNECTION]?: DdpConnection };

function frameText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** Answers an upgrade we do not accept with a plain HTTP response and closes the socket. */
function refuseUpgrade(socket: Duplex, status: number, body: object): void {
  socket.on('error', () => {});
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Cache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    () => socket.destroy(),
  );
}

export class DdpServer implements ConnectionOwner {
  readonly streams: StreamRegistry;
  readonly path: string;
  readonly pingIntervalMs: number;
  readonly pingTimeoutMs: number;
  readonly maxSubscriptions: number;
  readonly maxMethodsInFlight: number;
  readonly maxBufferedBytes: number;

  readonly #log: DdpLogger;
  readonly #clientAddress: (request: IncomingMessage) => string | undefined;
  readonly #mapError: (error: unknown) => ApiError | null;
  readonly #methods = new Map<string, MethodEntry>();
  readonly #connections = new Set<DdpConnection>();
  /** Every accepted socket until its 'close' event, including ones still in their closing handshake. */
  readonly #sockets = new Set<WebSocket>();
  readonly #visitorConnections = new Map<string, number>();
  readonly #wss: WebSocketServer;
  #server: Server | undefined;
  #sweepTimer: NodeJS.Timeout | undefined;
  #closing = false;

  constructor(options: DdpServerOptions = {}) {
    this.path = options.path ?? '/websocket';
    this.pingIntervalMs = options.pingIntervalMs ?? 30_000;
    this.pingTimeoutMs = options.pingTimeoutMs ?? 30_000;
    this.maxSubscriptions = options.maxSubscriptions ?? 200;
    this.maxMethodsInFlight = options.maxMethodsInFlight ?? 20;
    this.maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
    this.#log = options.logger ?? silentLogger;
    this.#clientAddress = options.clientAddress ?? ((request) => request.socket.remoteAddress);
    this.#mapError = options.mapError ?? (() => null);
    this.#wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: options.maxPayloadBytes ?? 64 * 1024,
    });
    this.streams = new StreamRegistry(this.#log, (name, definition) => this.#defineStreamWrite(name, definition));
    if (options.registry) this.#registerMetrics(options.registry);
  }

  // ----- the integrator's API -------------------------------------------------------------------------

  /**
   * Declares a method. With `options.params` (a TypeBox schema of the params array, e.g. a `Type.Tuple`;
   * `options.leading` for the leading params only, see `MethodOptions`) calls whose params do not match are
   * answered `400 Match failed` before the handler runs. The
   * handler's return value is the `result` (omitted when undefined; Dates become `{$date}`); a thrown
   * `MeteorError`/`ApiError` is the error the client receives; anything else is logged and sent as 500.
   */
  method<S extends TSchema>(name: string, handler: MethodHandler<Static<S>>, options: MethodOptions<S>): void;
  method(name: string, handler: MethodHandler<unknown[]>): void;
  method(name: string, handler: MethodHandler<never>, options?: MethodOptions<TSchema>): void {
    if (this.#methods.has(name)) throw new Error(`DDP method ${name} is already defined`);
    let leading: number | undefined;
    if (options?.leading) {
      const items = (options.params as { items?: unknown }).items;
      if (!Array.isArray(items)) throw new Error(`DDP method ${name}: \`leading\` needs a Type.Tuple params schema`);
      leading = items.length;
    }
    this.#methods.set(name, { handler, schema: options?.params, check: undefined, leading });
  }

  /** Open connections in this process that proved `token` (0 → the visitor has no live connection here). */
  visitorConnectionCount(token: string): number {
    return this.#visitorConnections.get(token) ?? 0;
  }

  /** Open connections in this process. */
  get connectionCount(): number {
    return this.#connections.size;
  }

  /** Every open connection (e.g. to find a user's sockets). */
  connections(): IterableIterator<DdpConnection> {
    return this.#connections.values();
  }

  /** Starts accepting WebSockets on `server` (call once, before or after it listens). */
  attach(server: Server): void {
    if (this.#server) throw new Error('DdpServer is already attached');
    this.#server = server;
    server.on('upgrade', this.#onUpgrade);
    const period = Math.min(5_000, Math.max(10, Math.floor(Math.min(this.pingIntervalMs, this.pingTimeoutMs) / 10)));
    this.#sweepTimer = setInterval(this.#sweep, period);
    this.#sweepTimer.unref();
  }

  /**
   * Stops accepting upgrades and closes every connection with 1001; sockets that have not finished the
   * closing handshake after `graceMs` are terminated, so the HTTP server's close never waits on them.
   */
  async close(graceMs = 1_000): Promise<void> {
    this.#closing = true;
    clearInterval(this.#sweepTimer);
    for (const connection of [...this.#connections]) connection.close(1001, 'Server shutting down');
    const pending = [...this.#sockets];
    if (pending.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(pending.map((socket) => new Promise((resolve) => socket.once('close', resolve)))),
      new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
    for (const socket of pending) if (socket.readyState !== socket.CLOSED) socket.terminate();
  }

  // ----- ConnectionOwner ------------------------------------------------------------------------------

  /** @internal */
  connectionEnded(connection: DdpConnection): void {
    this.#connections.delete(connection);
    const subscriptions = connection.subscriptions;
    connection.subscriptions = undefined;
    if (subscriptions) for (const subscription of subscriptions.values()) this.streams.deactivate(subscription);
    for (const token of connection.visitorTokens) {
      const count = (this.#visitorConnections.get(token) ?? 1) - 1;
      if (count <= 0) this.#visitorConnections.delete(token);
      else this.#visitorConnections.set(token, count);
    }
    for (const hook of connection.takeCloseHooks()) {
      void runHook(hook, connection, (error) => this.logError(error, 'DDP close hook failed'));
    }
  }

  /** @internal */
  visitorTokenAdded(token: string): void {
    this.#visitorConnections.set(token, (this.#visitorConnections.get(token) ?? 0) + 1);
  }

  /** @internal */
  logError(error: unknown, message: string): void {
    this.#log.error({ err: error }, message);
  }

  // ----- transport ------------------------------------------------------------------------------------

  readonly #onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = request.url ?? '';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (path !== this.path && path !== `${this.path}/`) return refuseUpgrade(socket, 404, endpointNotFound().body);
    if (this.#closing) return refuseUpgrade(socket, 503, serviceUnavailable().body);
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws, request));
  };

  #accept(ws: WebSocket, request: IncomingMessage): void {
    if (this.#closing) {
      ws.close(1001, 'Server shutting down');
      return;
    }
    let address: string | undefined;
    try {
      address = this.#clientAddress(request);
    } catch (error) {
      this.logError(error, 'DDP clientAddress failed');
    }
    const connection = new DdpConnection(ws, this, address ?? request.socket.remoteAddress, Date.now());
    (ws as SocketWithConnection)[CONNECTION] = connection;
    this.#connections.add(connection);
    this.#sockets.add(ws);
    ws.on('message', this.#onMessage);
    ws.on('close', this.#onClose);
    // ws closes the socket itself on protocol violations (1009 too big, 1007 bad UTF-8, 1002).
    ws.on('error', ignoreSocketError);
    connection.sendText(SERVER_ID_FRAME);
  }

  readonly #onClose = ((sockets: Set<WebSocket>) =>
    function onClose(this: SocketWithConnection): void {
      sockets.delete(this);
      this[CONNECTION]?.end();
    })(this.#sockets);

  /** One listener function for every socket (`this` is the socket): no closure per connection. */
  readonly #onMessage = ((server: DdpServer) =>
    function onMessage(this: SocketWithConnection, data: RawData, isBinary: boolean): void {
      const connection = this[CONNECTION];
      if (!connection) return;
      try {
        server.handleFrame(connection, data, isBinary);
      } catch (error) {
        server.logError(error, 'DDP frame handling failed');
        connection.close(1011, 'Internal error');
      }
    })(this);

  readonly #sweep = (): void => {
    const now = Date.now();
    for (const connection of this.#connections) {
      const silentFor = now - connection.lastSeen;
      if (!connection.connected) {
        if (silentFor >= this.pingIntervalMs + this.pingTimeoutMs) connection.close(4000, 'Connection timed out');
      } else if (connection.pingSentAt !== 0) {
        if (now - connection.pingSentAt >= this.pingTimeoutMs) connection.close(4000, 'Connection timed out');
      } else if (silentFor >= this.pingIntervalMs) {
        connection.pingSentAt = now;
        connection.sendText('{"msg":"ping"}');
      }
    }
  };

  // ----- protocol ---------------------------------------------------------------------------------------

  /** @internal One client frame (exposed for the socket listener). */
  handleFrame(connection: DdpConnection, data: RawData, isBinary: boolean): void {
    if (connection.ended) return;
    connection.lastSeen = Date.now();
    connection.pingSentAt = 0;
    if (isBinary) return connection.close(1003, 'Binary frames are not supported');
    let frame: unknown;
    try {
      frame = sjson.parse(frameText(data), undefined, JSON_OPTIONS);
    } catch {
      return connection.close(1007, 'Invalid JSON');
    }
    if (!isPlainObject(frame)) return connection.close(1007, 'A frame must be a JSON object');
    if (!connection.connected) {
      if (frame.msg !== 'connect') return connection.close(1002, 'The first message must be connect');
      return this.#connect(connection, frame);
    }
    switch (frame.msg) {
      case 'ping':
        return connection.sendText(typeof frame.id === 'string' ? stringifyEJSON({ msg: 'pong', id: frame.id }) : '{"msg":"pong"}');
      case 'pong':
        return;
      case 'method':
        return this.#method(connection, frame);
      case 'sub':
        return this.#sub(connection, frame);
      case 'unsub':
        return this.#unsub(connection, frame);
      default:
        return connection.sendText(BAD_REQUEST_FRAME);
    }
  }

  #connect(connection: DdpConnection, frame: Frame): void {
    if (frame.version !== SUPPORTED_VERSION) {
      connection.sendText(`{"msg":"failed","version":"${SUPPORTED_VERSION}"}`);
      return connection.close(1002, 'Unsupported DDP version');
    }
    connection.connected = true;
    connection.session = newId();
    connection.send({ msg: 'connected', session: connection.session });
  }

  #method(connection: DdpConnection, frame: Frame): void {
    const { id, method, params } = frame;
    if (typeof id !== 'string' || typeof method !== 'string') return connection.sendText(BAD_REQUEST_FRAME);
    if (params !== undefined && !Array.isArray(params)) return this.#answer(connection, id, undefined, matchFailed());
    if (connection.methodsInFlight >= this.maxMethodsInFlight) {
      return this.#answer(connection, id, undefined, tooManyRequests(`Too many method calls in flight (at most ${this.maxMethodsInFlight})`));
    }
    const entry = this.#methods.get(method);
    if (!entry) return this.#answer(connection, id, undefined, methodNotFound(method));
    const decoded = decodeEJSONInPlace(params ?? []);
    if (!decoded.ok) return this.#answer(connection, id, undefined, matchFailed());
    connection.methodsInFlight++;
    void this.#run(connection, id, method, entry, decoded.value);
  }

  async #run(connection: DdpConnection, id: string, name: string, entry: MethodEntry, params: unknown): Promise<void> {
    try {
      if (entry.leading !== undefined) {
        const given = params as unknown[];
        params = Array.from({ length: entry.leading }, (_, i) => given[i]);
      }
      if (entry.schema) {
        entry.check ??= TypeCompiler.Compile(entry.schema);
        if (!entry.check.Check(params)) throw matchFailed();
      }
      const result = await (entry.handler as MethodHandler<unknown>)(params, connection);
      this.#answer(connection, id, result, undefined, name);
    } catch (error) {
      this.#answer(connection, id, undefined, this.#clientError(error, { method: name }));
    } finally {
      connection.methodsInFlight--;
    }
  }

  #answer(connection: DdpConnection, id: string, result: unknown, error: MeteorError | undefined, method?: string): void {
    if (connection.ended) return;
    const frame = error ? { msg: 'result', id, error } : result === undefined ? { msg: 'result', id } : { msg: 'result', id, result };
    connection.sendText(this.#serialise(frame, { msg: 'result', id, error: internalServerError() }, { method }));
    connection.sendText(`{"msg":"updated","methods":[${JSON.stringify(id)}]}`);
  }

  /** `frame` as EJSON text, or `fallback` when it cannot be serialised (a cycle, a BigInt in a result or details). */
  #serialise(frame: object, fallback: object, context: object): string {
    try {
      return stringifyEJSON(frame);
    } catch (failure) {
      this.#log.error({ err: failure, ...context }, 'DDP frame could not be serialised');
      return stringifyEJSON(fallback);
    }
  }

  #clientError(error: unknown, context: object): MeteorError {
    const meteor = toMeteorError(error) ?? toMeteorError(this.#mapError(error));
    if (meteor) return meteor;
    this.#log.error({ err: error, ...context }, 'DDP call failed');
    return internalServerError();
  }

  #sub(connection: DdpConnection, frame: Frame): void {
    const { id, name, params } = frame;
    if (typeof id !== 'string' || typeof name !== 'string') return connection.sendText(BAD_REQUEST_FRAME);
    const subscriptions = (connection.subscriptions ??= new Map());
    // Meteor ignores a sub whose id is in use; we say so instead of leaving the client waiting.
    if (subscriptions.has(id)) return connection.sendText(BAD_REQUEST_FRAME);
    if (params !== undefined && !Array.isArray(params)) return this.#nosub(connection, id, matchFailed());
    if (subscriptions.size >= this.maxSubscriptions) {
      return this.#nosub(connection, id, tooManyRequests(`Too many subscriptions (at most ${this.maxSubscriptions})`));
    }
    const stream = this.streams.get(name);
    if (!stream) return this.#nosub(connection, id, subscriptionNotFound(name));
    let normalised: ReturnType<typeof normaliseStreamParams>;
    try {
      normalised = normaliseStreamParams(params ?? []);
    } catch (error) {
      return this.#nosub(connection, id, this.#clientError(error, { stream: name }));
    }
    const subscription: DdpSubscription = {
      id,
      streamName: name,
      eventName: normalised.eventName,
      extra: normalised.extra,
      connection,
      active: false,
    };
    subscriptions.set(id, subscription);
    void this.#subscribe(stream, subscription);
  }

  async #subscribe(stream: StreamDefinition, subscription: DdpSubscription): Promise<void> {
    const { connection } = subscription;
    let allowed = false;
    let error: MeteorError | undefined;
    try {
      allowed = (await stream.allowSubscribe(connection, subscription.eventName, subscription.extra)) === true;
    } catch (thrown) {
      error = this.#clientError(thrown, { stream: subscription.streamName });
    }
    // Unsubscribed or disconnected while being checked: nothing more to say.
    if (connection.ended || connection.subscriptions?.get(subscription.id) !== subscription) return;
    if (!allowed) {
      connection.subscriptions.delete(subscription.id);
      return this.#nosub(connection, subscription.id, error ?? notAllowed());
    }
    this.streams.activate(subscription);
    connection.sendText(`{"msg":"ready","subs":[${JSON.stringify(subscription.id)}]}`);
    if (stream.onReady) {
      try {
        stream.onReady(connection, subscription);
      } catch (thrown) {
        this.#log.error({ err: thrown, stream: subscription.streamName }, 'stream onReady failed');
      }
    }
  }

  #nosub(connection: DdpConnection, id: string, error?: MeteorError): void {
    const frame = error ? { msg: 'nosub', id, error } : { msg: 'nosub', id };
    connection.sendText(this.#serialise(frame, { msg: 'nosub', id, error: internalServerError() }, {}));
  }

  #unsub(connection: DdpConnection, frame: Frame): void {
    const { id } = frame;
    if (typeof id !== 'string') return connection.sendText(BAD_REQUEST_FRAME);
    const subscription = connection.subscriptions?.get(id);
    if (subscription) {
      connection.subscriptions!.delete(id);
      this.streams.deactivate(subscription);
    }
    this.#nosub(connection, id);
  }

  #defineStreamWrite(name: string, definition: StreamDefinition): void {
    const write = definition.write;
    if (!write) return;
    this.method(name, (params: unknown[], connection) => {
      const [eventName, ...args] = params;
      if (typeof eventName !== 'string') throw matchFailed();
      return write.call(definition, connection, eventName, args);
    });
  }

  #registerMetrics(registry: Registry): void {
    const connections = this.#connections;
    const streams = this.streams;
    new Gauge({
      name: 'ddp_connections',
      help: 'Open DDP (WebSocket) connections in this process',
      registers: [registry],
      collect() {
        this.set(connections.size);
      },
    });
    new Gauge({
      name: 'ddp_subscriptions',
      help: 'Active DDP stream subscriptions in this process',
      registers: [registry],
      collect() {
        this.set(streams.subscriptionCount);
      },
    });
  }
}

function ignoreSocketError(): void {}
