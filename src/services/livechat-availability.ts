import type { ChangeBus } from '../lib/change-bus.js';
import type { DepartmentRecord, Store } from '../store/store.js';
import { followChanges } from './follow-changes.js';

/** More enabled departments than this are read from the store each time (the widget lists them all). */
const MAX_CACHED_DEPARTMENTS = 1000;

/**
 * The livechat reads behind every widget's `livechat/config`: the enabled
 * departments and whether an agent is available (overall or in one
 * department), from memory. The store reports every committed write that can
 * change them (departments, their agent lists, agents' roles, livechat status,
 * presence, deactivation, deletion: `DataChange.livechat`); the cache is dropped
 * at once here and, through the change bus, in every other process.
 */
export class LivechatAvailability {
  private departments: DepartmentRecord[] | null = null;
  /** Department id (or '' for any department) → an agent is available. */
  private available = new Map<string, boolean>();
  /** Moves on every invalidation: a read that raced one is not kept. */
  private generation = 0;

  constructor(
    private readonly store: Store,
    bus: ChangeBus,
    onBusError: (error: unknown) => void = () => {},
  ) {
    followChanges(store, bus, 'livechat', (change) => (change.livechat ? null : undefined), () => this.forget(), onBusError);
  }

  /** Moves on every invalidation: what was built from these reads at one revision is still true at the same one. */
  get revision(): number {
    return this.generation;
  }

  /** The enabled departments, ordered as `departments.list` orders them. */
  async enabledDepartments(): Promise<readonly DepartmentRecord[]> {
    if (this.departments) return this.departments;
    const generation = this.generation;
    const { departments, total } = await this.store.departments.list({ enabledOnly: true, offset: 0, count: MAX_CACHED_DEPARTMENTS });
    if (generation === this.generation && total <= MAX_CACHED_DEPARTMENTS) this.departments = departments;
    return departments;
  }

  /** Whether an agent is available, in `departmentId` or (null) in any department. */
  async hasAvailable(departmentId: string | null): Promise<boolean> {
    const key = departmentId ?? '';
    const known = this.available.get(key);
    if (known !== undefined) return known;
    const generation = this.generation;
    const available = await this.store.agents.hasAvailable({ departmentId });
    // Kept only for a department that exists and is enabled, so a client cannot grow the map at will.
    const cacheable = key === '' || (await this.enabledDepartments()).some((d) => d.id === key);
    if (cacheable && generation === this.generation) this.available.set(key, available);
    return available;
  }

  private forget(): void {
    this.generation++;
    this.departments = null;
    this.available = new Map();
  }
}
