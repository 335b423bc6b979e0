import type { ChangeBus, ChangeKeys, ChangeTopic } from './change-bus.js';
import type { DataChange, Store } from '../store/store.js';

/**
 * Keeps an in-memory cache in step with the data, in every process: `forget` runs at once for each committed
 * change that `select` picks out (its keys, or null for the whole topic; undefined: not this cache's business),
 * with the change itself, and then the other processes are told on the change bus under `topic`; a
 * notification from another process runs `forget` with the keys it carried (no change). This process is not
 * told again through the bus: it is already up to date.
 */
export function followChanges(
  store: Store,
  bus: ChangeBus,
  topic: ChangeTopic,
  select: (change: DataChange) => ChangeKeys | undefined,
  forget: (keys: ChangeKeys, change?: DataChange) => void,
  onBusError: (error: unknown) => void,
): void {
  store.onChange((change) => {
    const keys = select(change);
    if (keys === undefined) return;
    forget(keys, change);
    bus.publish(topic, keys ?? undefined, { others: true }).catch(onBusError);
  });
  bus.subscribe(topic, (keys) => forget(keys));
}
