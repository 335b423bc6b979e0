/**
 * Rocket.Chat-style streams (the contract, R4) on DDP subscriptions: `sub` name = stream name,
 * `params = [eventName, options]`. Subscriptions are indexed by (stream, eventName), so an emit costs
 * O(subscribers of that event), and every delivery is checked again by the stream's `allowDeliver`.
 */
import { changedFrame, type DdpConnection, type DdpSubscription } from './connection.js';
import { matchFailed } from './errors.js';
import { isPlainObject } from '../../lib/values.js';

/** One event as `emit` received it; `context` is the integrator's (never sent), e.g. the room as it was. */
export interface StreamEvent {
  readonly streamName: string;
  readonly eventName: string;
  readonly args: readonly unknown[];
  readonly context: unknown;
}

export interface StreamDefinition {
  /**
   * May this connection subscribe to `eventName`? `true` → `ready`; `false` → `nosub` with
   * `not-allowed`; throw a `MeteorError` (or an `ApiError`) to refuse with that error instead.
   */
  allowSubscribe(connection: DdpConnection, eventName: string, extra: Readonly<Record<string, unknown>>): boolean | Promise<boolean>;
  /** Checked for every delivery of every event (`false`, or a throw, drops that one delivery). */
  allowDeliver(connection: DdpConnection, subscription: DdpSubscription, event: StreamEvent): boolean | Promise<boolean>;
  /**
   * Writes into the stream: the method of the same name as the stream (Rocket.Chat's `stream-<name>`,
   * e.g. `stream-notify-room`) with params `[eventName, ...args]`. Without it that method does not exist
   * (404). The handler checks the writer and usually calls
   * `emit(name, eventName, args, {except: connection})`; its return value is the method's result.
   */
  write?(connection: DdpConnection, eventName: string, args: unknown[]): unknown;
  /** Called right after `ready` was sent (e.g. to push the current state to the new subscriber). */
  onReady?(connection: DdpConnection, subscription: DdpSubscription): void;
}

export interface EmitOptions {
  /** Do not deliver to this connection (a writer must not get its own typing event back). */
  except?: DdpConnection;
  /** Handed to `allowDeliver` as `event.context`; not sent. */
  context?: unknown;
}

const NO_EXTRA: Readonly<Record<string, unknown>> = Object.freeze({});

/** A plain object: not an EJSON date (which arrives as a Date). */
function isOptionsObject(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && !(value instanceof Date);
}

/**
 * The sub params every client sends, normalised: `[eventName]`, `[eventName, true|false]` (old callers),
 * `[eventName, {useCollection:false, args:[extra]}]` with `args` `[]`, `[null]` or `[false]` meaning no
 * extra. Anything else is malformed (`Match failed`).
 */
export function normaliseStreamParams(params: unknown[]): { eventName: string; extra: Readonly<Record<string, unknown>> } {
  const [eventName, options] = params;
  if (typeof eventName !== 'string' || eventName === '' || params.length > 2) throw matchFailed();
  if (options === undefined || options === null || typeof options === 'boolean') return { eventName, extra: NO_EXTRA };
  if (!isOptionsObject(options)) throw matchFailed();
  const args = options.args;
  if (args === undefined) return { eventName, extra: NO_EXTRA };
  if (!Array.isArray(args) || args.length > 1) throw matchFailed();
  const extra: unknown = args[0];
  if (extra === undefined || extra === null || extra === false) return { eventName, extra: NO_EXTRA };
  if (!isOptionsObject(extra)) throw matchFailed();
  return { eventName, extra };
}

export interface StreamLogger {
  error(object: object, message: string): void;
}

export class StreamRegistry {
  readonly #streams = new Map<string, StreamDefinition>();
  /** stream → eventName → active subscriptions. */
  readonly #index = new Map<string, Map<string, Set<DdpSubscription>>>();
  #activeCount = 0;

  constructor(
    private readonly log: StreamLogger,
    private readonly onDefine: (name: string, definition: StreamDefinition) => void,
  ) {}

  /** Declares a stream; a stream with `write` also gets a method of the stream's name (its writes). */
  define(name: string, definition: StreamDefinition): void {
    if (this.#streams.has(name)) throw new Error(`stream ${name} is already defined`);
    this.#streams.set(name, definition);
    this.onDefine(name, definition);
  }

  get(name: string): StreamDefinition | undefined {
    return this.#streams.get(name);
  }

  /** Active subscriptions in this process. */
  get subscriptionCount(): number {
    return this.#activeCount;
  }

  /** The event names of a stream with an active subscription in this process. */
  eventNames(streamName: string): string[] {
    return [...(this.#index.get(streamName)?.entries() ?? [])].filter(([, set]) => set.size > 0).map(([name]) => name);
  }

  /** Number of active subscriptions to (stream, eventName) in this process. */
  subscriberCount(streamName: string, eventName: string): number {
    return this.#index.get(streamName)?.get(eventName)?.size ?? 0;
  }

  /**
   * Pushes `{"msg":"changed","collection":streamName,"id":"id","fields":{eventName,args}}` to every
   * subscription of (streamName, eventName) in this process that `allowDeliver` admits. The frame is
   * serialised once (EJSON dates). Returns the number of subscriptions considered.
   */
  emit(streamName: string, eventName: string, args: unknown[], options: EmitOptions = {}): number {
    const subscribers = this.#index.get(streamName)?.get(eventName);
    const definition = this.#streams.get(streamName);
    if (!subscribers || subscribers.size === 0 || !definition) return 0;
    const frame = changedFrame(streamName, eventName, args);
    const event: StreamEvent = { streamName, eventName, args, context: options.context };
    let count = 0;
    for (const subscription of subscribers) {
      if (subscription.connection === options.except) continue;
      count++;
      this.#deliver(definition, subscription, event, frame);
    }
    return count;
  }

  #deliver(definition: StreamDefinition, subscription: DdpSubscription, event: StreamEvent, frame: string): void {
    const connection = subscription.connection;
    let verdict: boolean | Promise<boolean>;
    try {
      verdict = definition.allowDeliver(connection, subscription, event);
    } catch (error) {
      this.log.error({ err: error, stream: event.streamName }, 'allowDeliver failed; event dropped for one subscriber');
      return;
    }
    if (connection.deliveryTail === undefined && typeof verdict === 'boolean') {
      if (verdict) connection.sendText(frame);
      return;
    }
    // An earlier delivery is still being checked, or this one is async: queue behind it to keep the order.
    // Frames waiting here count against the connection's buffer bound, so a stalled check cannot hoard memory.
    // The verdict gets its handlers now: a rejection waiting behind an earlier delivery is never unhandled.
    const decided = Promise.resolve(verdict).then(
      (allowed) => allowed === true,
      (error: unknown) => {
        this.log.error({ err: error, stream: event.streamName }, 'allowDeliver failed; event dropped for one subscriber');
        return false;
      },
    );
    if (!connection.reserve(frame.length)) return;
    const previous = connection.deliveryTail ?? Promise.resolve();
    const next: Promise<void> = previous
      .then(() => decided)
      .then((allowed) => {
        connection.pendingBytes -= frame.length;
        if (allowed && subscription.active) connection.sendText(frame);
        if (connection.deliveryTail === next) connection.deliveryTail = undefined;
      });
    connection.deliveryTail = next;
  }

  /** @internal */
  activate(subscription: DdpSubscription): void {
    let byEvent = this.#index.get(subscription.streamName);
    if (!byEvent) this.#index.set(subscription.streamName, (byEvent = new Map()));
    let set = byEvent.get(subscription.eventName);
    if (!set) byEvent.set(subscription.eventName, (set = new Set()));
    set.add(subscription);
    subscription.active = true;
    this.#activeCount++;
  }

  /** @internal */
  deactivate(subscription: DdpSubscription): void {
    if (!subscription.active) return;
    subscription.active = false;
    this.#activeCount--;
    const byEvent = this.#index.get(subscription.streamName);
    const set = byEvent?.get(subscription.eventName);
    if (!byEvent || !set) return;
    set.delete(subscription);
    if (set.size === 0) {
      byEvent.delete(subscription.eventName);
      if (byEvent.size === 0) this.#index.delete(subscription.streamName);
    }
  }
}
