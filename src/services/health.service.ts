import type { Store } from '../store/store.js';

/** Readiness (contract §9, `/readyz`): whether this process can reach its database. */
export class HealthService {
  constructor(private readonly store: Store) {}

  /** True when the database answers a trivial query; false (never a throw) when it does not. */
  async databaseReady(): Promise<boolean> {
    try {
      await this.store.ping();
      return true;
    } catch {
      return false;
    }
  }
}
