import type { ChangeBus } from '../events/change-bus.js';
import type { DepartmentRecord, Store } from '../store/store.js';
import { followChanges } from '../events/follow-changes.js';

/** More enabled departments than this are read from the store each time (the widget lists them all). */
const MAX_CACHED_DEPARTMENTS = 1000;

/**
 * The livechat reads behind every widget's `livechat/config`: the enabled
 * departments and whether an agent is available (overall or in one
 * department), from memory; and a department by id or name, which a transfer
 * and a visitor's registration look up before they write. The store reports
 * every committed write that can change them (departments, their agent lists,
 * agents' roles, livechat status, presence, deactivation, deletion:
 * `DataChange.livechat`); the cache is dropped at once here and, through the
 * change bus, in every other process.
 */
export class LivechatAvailability {
  private departments: DepartmentRecord[] | null = null;
  /** Every department (enabled or not) by id, and by name the one with the lowest id. */
  private index: { byId: Map<string, DepartmentRecord>; byName: Map<string, DepartmentRecord> } | null = null;
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

  /**
   * `departments.findByIdOrName` from memory: the department with this id, else the one of this name with the
   * lowest id (in code-point order), enabled or not. Read from the store each time when there are more than
   * MAX_CACHED_DEPARTMENTS departments.
   */
  async departmentByIdOrName(value: string): Promise<DepartmentRecord | null> {
    if (!this.index) {
      const generation = this.generation;
      const { departments, total } = await this.store.departments.list({ offset: 0, count: MAX_CACHED_DEPARTMENTS });
      if (total > MAX_CACHED_DEPARTMENTS) return this.store.departments.findByIdOrName(value);
      // Listed by name, then id in code-point order: a name's first department has its lowest id.
      const index = { byId: new Map<string, DepartmentRecord>(), byName: new Map<string, DepartmentRecord>() };
      for (const department of departments) {
        index.byId.set(department.id, department);
        if (!index.byName.has(department.name)) index.byName.set(department.name, department);
      }
      if (generation !== this.generation) return index.byId.get(value) ?? index.byName.get(value) ?? null;
      this.index = index;
    }
    return this.index.byId.get(value) ?? this.index.byName.get(value) ?? null;
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
    this.index = null;
    this.available = new Map();
  }
}
