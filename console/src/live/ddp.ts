/**
 * The DDP transport of the live hub, on Rocket.Chat's own `@rocket.chat/ddp-client`
 * (`DDPSDK`: ~10 KB gzipped in the bundle, well inside the budget). Streams and
 * methods are those of the realtime contract (R3/R4, see docs/README.md):
 *
 * - `stream-notify-user` `<uid>/subscriptions-changed`, `<uid>/rooms-changed` → "rooms";
 * - `stream-room-messages` `__my_messages__` → "room:<rid>" and "rooms";
 * - `stream-livechat-inquiry-queue-observer` `public` → "queue";
 * - per open conversation: `stream-room-messages <rid>`, `stream-notify-room <rid>/typing`,
 *   `stream-livechat-room <rid>` → "room:<rid>", and its `visitorData` (a visitor's details, custom fields or a new
 *   page of the trail) also → "visitor:<rid>";
 * - typing is sent with the `stream-notify-room` method.
 *
 * Reconnects are ours (the SDK is created without retries): backoff from 1 s to
 * 30 s. A server without `/websocket` is simply "polling" and retried every 30 s.
 */
import { DDPSDK } from '@rocket.chat/ddp-client';
import type { LiveSink, LiveTopic, LiveTransport, TransportFactory } from './live.js';

interface DdpOptions {
  /** The server's origin as ws://host or wss://host: the SDK itself appends `/websocket`. */
  url: string;
  userId: string;
  authToken: string;
}

type Stop = () => void;

/** What `DDPSDK.create` wants for this page's server: `ws(s)://host` (it connects to `<that>/websocket`). */
export function socketOrigin(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}`;
}

function messageRid(args: unknown[]): string | undefined {
  const message = args[0] as { rid?: unknown } | undefined;
  return typeof message?.rid === 'string' ? message.rid : undefined;
}

/** A Meteor error object (what the SDK rejects with), as opposed to a bug of ours. */
function isDdpError(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && ('isClientSafe' in reason || (reason as { errorType?: unknown }).errorType === 'Meteor.Error');
}

let guardInstalled = false;
/**
 * The SDK's `unsubscribe` returns a promise that rejects when the server answers `nosub` with an error,
 * and its `stop()` drops that promise: a refused or already-ended subscription would surface as an
 * unhandled rejection. Those (Meteor error objects only) are expected here and silenced.
 */
function installRejectionGuard(): void {
  if (guardInstalled || typeof window === 'undefined') return;
  guardInstalled = true;
  window.addEventListener('unhandledrejection', (event) => {
    if (isDdpError(event.reason)) event.preventDefault();
  });
}

export function ddpTransport(options: DdpOptions): TransportFactory {
  return (sink: LiveSink): LiveTransport => {
    installRejectionGuard();
    const sdk = DDPSDK.create(options.url, { retryCount: 0, retryTime: 1000 });
    // The SDK types each stream's events after Rocket.Chat's server; Parley's names are the contract's.
    const stream = sdk.stream.bind(sdk) as unknown as (name: string, key: string, cb: (...args: unknown[]) => void) => { stop(): void };
    let closed = false;
    let everLive = false;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const invalidate = (topic: LiveTopic) => sink.invalidate(topic);

    // Account-wide streams, subscribed once; the SDK re-subscribes them after a reconnect.
    const global: Stop[] = [];
    const subscribeGlobal = () => {
      if (global.length > 0) return;
      const uid = options.userId;
      const watch = (name: string, key: string, cb: (...args: unknown[]) => void) => {
        const sub = stream(name, key, cb);
        global.push(() => sub.stop());
      };
      watch('notify-user', `${uid}/subscriptions-changed`, () => invalidate('rooms'));
      watch('notify-user', `${uid}/rooms-changed`, () => invalidate('rooms'));
      // W0.4: the outbox and the messages left (the server delivers each only to users allowed to read it).
      watch('notify-user', `${uid}/email-outbox-changed`, () => invalidate('mail'));
      watch('notify-user', `${uid}/offline-messages-changed`, () => invalidate('offline'));
      watch('room-messages', '__my_messages__', (...args) => {
        const rid = messageRid(args);
        if (rid) invalidate(`room:${rid}`);
        invalidate('rooms');
      });
      watch('livechat-inquiry-queue-observer', 'public', (...args) => {
        // `[{type: 'removed', _id}]` when a chat leaves the queue: dropped at once, the re-read then finds nothing missing.
        const change = args[0] as { type?: unknown; _id?: unknown } | undefined;
        if (change?.type === 'removed' && typeof change._id === 'string') sink.queueRemoved(change._id);
        invalidate('queue');
      });
    };

    let loggedIn = false;
    const rooms = new Map<string, Stop | null>();
    const subscribeRoom = (rid: string): Stop => {
      const subs = [
        stream('room-messages', rid, () => {
          invalidate(`room:${rid}`);
          invalidate('rooms');
        }),
        stream('notify-room', `${rid}/typing`, (username, typing) => {
          if (typeof username === 'string') sink.typing(rid, username, typing === true);
        }),
        stream('livechat-room', rid, (...args) => {
          invalidate(`room:${rid}`);
          if ((args[0] as { type?: unknown } | undefined)?.type === 'visitorData') invalidate(`visitor:${rid}`);
        }),
      ];
      return () => {
        for (const sub of subs) sub.stop();
      };
    };

    const schedule = () => {
      if (closed) return;
      clearTimeout(timer);
      attempt += 1;
      const delay = everLive ? Math.min(30_000, 1000 * 2 ** Math.min(attempt - 1, 5)) : 30_000;
      timer = setTimeout(() => {
        void sdk.connection.reconnect().catch(() => schedule());
      }, delay);
    };

    sdk.connection.on('connection', (status) => {
      if (closed) return;
      if (status === 'connected') {
        sdk.account
          .loginWithToken(options.authToken)
          .then(() => {
            attempt = 0;
            everLive = true;
            loggedIn = true;
            subscribeGlobal();
            for (const [rid, stop] of rooms) if (!stop) rooms.set(rid, subscribeRoom(rid));
            sink.status('live');
          })
          .catch(() => {
            // Token refused on the socket: REST will say 401 and end the session; poll meanwhile.
            sink.status('polling');
          });
      } else if (status === 'disconnected' || status === 'closed' || status === 'failed') {
        sink.status(everLive ? 'reconnecting' : 'polling');
        schedule();
      }
    });
    void sdk.connection.connect().catch(() => {
      sink.status('polling');
      schedule();
    });

    return {
      watchRoom(rid) {
        // Subscribed once the socket is logged in (a refused subscription's later unsub makes the SDK reject
        // a promise nobody holds); the SDK re-subscribes them itself after a reconnect.
        rooms.set(rid, loggedIn ? subscribeRoom(rid) : null);
        return () => {
          rooms.get(rid)?.();
          rooms.delete(rid);
        };
      },
      sendTyping(rid, username, typing) {
        if (sdk.connection.status !== 'connected') return;
        void sdk.call('stream-notify-room', `${rid}/typing`, username, typing).catch(() => {});
      },
      close() {
        closed = true;
        for (const stop of rooms.values()) stop?.();
        rooms.clear();
        clearTimeout(timer);
        for (const stop of global) stop();
        sdk.connection.close();
      },
    };
  };
}
