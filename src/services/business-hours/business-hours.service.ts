/**
 * Business hours (desk contract D1): the schedules' REST operations, and the decisions that depend on them — is a
 * department open now (`livechat/config`'s `online`, a new room routed or made to wait), which agents are routable,
 * and the durable job that dispatches waiting rooms at each opening. Every decision evaluates the stored schedule
 * at its own instant (`schedule.ts`); nothing flips agents' status (Rocket.Chat's cron does).
 */
import type { Static } from '@sinclair/typebox';
import { newId } from '../../lib/ids.js';
import { iso, type Clock, type Millis } from '../../lib/time.js';
import { ConflictError } from '../../store/errors.js';
import type { BusinessHourHoliday, BusinessHourRecord, BusinessHourWorkHour, RoutingCandidate, ScheduleSet, Store } from '../../store/store.js';
import type { BusinessHour, BusinessHourQuery, BusinessHourRemoveBody, BusinessHourSaveBody, BusinessHoursListQuery } from '../../wire/business-hours.js';
import { bareFailure, invalidParams } from '../errors.js';
import { invalidSort, parsePaging, type PagingQuery } from '../paging.js';
import type { SettingsService } from '../settings.service.js';
import {
  canonicalTimeZone,
  compile,
  formatDay,
  isOpen,
  isValidTimeZone,
  localTime,
  nextChange,
  nextOpening,
  parseDate,
  parseTime,
  toUtc,
  utcOffsetHours,
  type CompiledSchedule,
} from './schedule.js';

/** The seeded default schedule's id (a fixed id: desk contract D1). */
export const DEFAULT_BUSINESS_HOUR_ID = 'default-business-hour';
/** The job that dispatches waiting rooms at a schedule's opening (key: the schedule id). */
export const OPENING_JOB = 'livechat.business-hours-opening';

const DAY_MS = 86_400_000;
/** The opening job's key for the dispatch that follows a schedule change. */
const CHANGED_KEY = 'schedule-changed';


export type BusinessHourWire = Static<typeof BusinessHour>;

/** Which agents may take a chat, given the candidates routing read (null: every one). */
export type RoutingGate = (tx: Store, candidates: readonly RoutingCandidate[]) => Promise<ReadonlySet<string> | null>;

/** A business-hours decision for a department (or none) at an instant. */
export interface HoursDecision {
  open: boolean;
  /** When closed: the next opening (null: none within a year). */
  nextOpen: Millis | null;
  /** The zone `nextOpen` is shown in. */
  zone: string;
  /** The schedule whose opening dispatches the waiting room (null when open or never opening). */
  openingScheduleId: string | null;
  /** Per-agent routability when it depends on the agent (a room without department, `Multiple`). */
  gate: RoutingGate | null;
}

const ALWAYS_OPEN: HoursDecision = { open: true, nextOpen: null, zone: 'UTC', openingScheduleId: null, gate: null };

/** The weekly hours a new default schedule has: Monday to Friday, 08:00–20:00. */
function officeHours(): BusinessHourWorkHour[] {
  const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
  return days.map((day) => ({ day, start: '08:00', finish: '20:00', open: day !== 'Sunday' && day !== 'Saturday' }));
}

export class BusinessHoursService {
  /** Compiled schedules by id and `_updatedAt`. */
  private compiled = new Map<string, { updatedAt: Millis; compiled: CompiledSchedule }>();
  /** The schedules in use (for `livechat/config`), kept until a livechat change. */
  private inUse: ScheduleSet | null = null;
  /** Per schedule id: open or closed over `[from, until)` (a pure function of the schedule and the time). */
  private states = new Map<string, { from: Millis; until: Millis; open: boolean }>();
  private revision = -1;

  constructor(
    private readonly store: Store,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    /**
     * Moves at every committed livechat change, in every process (`LivechatAvailability.revision`); schedule writes
     * are livechat changes, so what is kept here is dropped when it moves. Following it adds no notification.
     */
    private readonly livechatChanges: { readonly revision: number },
  ) {}

  /** Drops what was kept when a livechat change happened since it was read. */
  private current(): void {
    const revision = this.livechatChanges.revision;
    if (revision !== this.revision) {
      this.revision = revision;
      this.inUse = null;
      this.states.clear();
    }
  }

  /** Whether schedules decide anything (`Livechat_enable_business_hours`). */
  get enabled(): boolean {
    return this.settings.get('Livechat_enable_business_hours');
  }

  /** Start-up: the default schedule (zone `zone`, else UTC; Monday–Friday 08:00–20:00) unless one exists. */
  async ensureDefault(zone: string | undefined): Promise<void> {
    const now = this.clock.now();
    const timezone = zone && isValidTimeZone(zone) ? canonicalTimeZone(zone) : 'UTC';
    await this.store.businessHours.ensureDefault({
      id: DEFAULT_BUSINESS_HOUR_ID,
      name: '',
      type: 'default',
      active: true,
      timezone,
      workHours: officeHours(),
      holidays: [],
      ts: now,
      updatedAt: now,
    });
  }

  private compiledOf(s: BusinessHourRecord): CompiledSchedule {
    const known = this.compiled.get(s.id);
    if (known && known.updatedAt === s.updatedAt) return known.compiled;
    const compiled = compile(s);
    if (this.compiled.size > 1000) this.compiled.clear();
    this.compiled.set(s.id, { updatedAt: s.updatedAt, compiled });
    return compiled;
  }

  // ── decisions ──

  /** The schedule a department follows in `set` (null department: the default). */
  private scheduleFor(set: ScheduleSet, departmentId: string | null): BusinessHourRecord | null {
    if (departmentId !== null && this.settings.get('Livechat_business_hour_type') === 'Multiple') {
      const custom = set.custom.find((c) => c.departmentIds.includes(departmentId));
      if (custom) return custom.schedule;
    }
    return set.defaultSchedule;
  }

  private openAt(s: BusinessHourRecord | null, now: Millis): boolean {
    return !s || !s.active || isOpen(this.compiledOf(s), now);
  }

  /**
   * The decision for a department (null: none) at `now`, from `set` (`forDecision`'s read). A room without a
   * department: in `Single` mode the default; in `Multiple` open while any schedule in use is, and an agent is
   * routable for it through one of her departments that is open, or (in none) while the default is.
   */
  decideFrom(set: ScheduleSet, departmentId: string | null, now: Millis): HoursDecision {
    if (!this.enabled) return ALWAYS_OPEN;
    const multiple = this.settings.get('Livechat_business_hour_type') === 'Multiple';
    const schedules = departmentId === null && multiple ? [set.defaultSchedule, ...set.custom.map((c) => c.schedule)] : [this.scheduleFor(set, departmentId)];
    const states = schedules.map((s) => ({ s, open: this.openAt(s, now) }));
    const open = states.some((x) => x.open);
    if (!open) {
      // The soonest opening among the schedules that decide.
      let best: { at: Millis; s: BusinessHourRecord } | null = null;
      for (const { s } of states) {
        if (!s) continue;
        const at = nextOpening(this.compiledOf(s), now);
        if (at !== null && (best === null || at < best.at)) best = { at, s };
      }
      return { open: false, nextOpen: best?.at ?? null, zone: best?.s.timezone ?? 'UTC', openingScheduleId: best?.s.id ?? null, gate: null };
    }
    if (departmentId !== null || !multiple || states.every((x) => x.open)) return ALWAYS_OPEN;
    const defaultOpen = this.openAt(set.defaultSchedule, now);
    const closedDepartments = new Set(set.custom.filter((c) => !this.openAt(c.schedule, now)).flatMap((c) => c.departmentIds));
    const customDepartments = new Set(set.custom.flatMap((c) => c.departmentIds));
    const departmentOpen = (d: string) => (customDepartments.has(d) ? !closedDepartments.has(d) : defaultOpen);
    const gate: RoutingGate = async (tx, candidates) => {
      const memberships = await tx.businessHours.departmentsOfAgents(candidates.map((c) => c.id));
      const routable = new Set<string>();
      for (const c of candidates) {
        const departments = memberships.get(c.id) ?? [];
        if (departments.length === 0 ? defaultOpen : departments.some(departmentOpen)) routable.add(c.id);
      }
      return routable;
    };
    return { open: true, nextOpen: null, zone: 'UTC', openingScheduleId: null, gate };
  }

  /** The decision for a department (null: none) at `now`, read through `store` (a transaction's, or the root) in one statement. */
  async decide(store: Store, departmentId: string | null, now: Millis): Promise<HoursDecision> {
    if (!this.enabled) return ALWAYS_OPEN;
    // Single mode: only the default decides, read by its (seeded) primary key.
    const set: ScheduleSet =
      this.settings.get('Livechat_business_hour_type') === 'Multiple'
        ? await store.businessHours.forDecision(departmentId)
        : { defaultSchedule: await store.businessHours.findById(DEFAULT_BUSINESS_HOUR_ID), custom: [] };
    return this.decideFrom(set, departmentId, now);
  }

  /**
   * DESK.md D8's `valueBh`: how many milliseconds of `[from, to)` lie inside `open(D)` for the department (null:
   * none), from the schedules as stored now, read through `store` (the recorder's transaction). Hours off, or an
   * inactive schedule: the whole interval.
   */
  async openMillis(store: Store, departmentId: string | null, from: Millis, to: Millis): Promise<number> {
    if (to <= from) return 0;
    if (!this.enabled) return to - from;
    const multiple = this.settings.get('Livechat_business_hour_type') === 'Multiple';
    const set: ScheduleSet = multiple
      ? await store.businessHours.forDecision(departmentId)
      : { defaultSchedule: await store.businessHours.findById(DEFAULT_BUSINESS_HOUR_ID), custom: [] };
    const records = departmentId === null && multiple ? [set.defaultSchedule, ...set.custom.map((c) => c.schedule)] : [this.scheduleFor(set, departmentId)];
    if (records.some((s) => !s || !s.active)) return to - from;
    const schedules = records.map((s) => this.compiledOf(s!));
    let open = 0;
    let t = from;
    while (t < to) {
      const isOpenNow = schedules.some((s) => isOpen(s, t));
      let next = to;
      for (const s of schedules) {
        const change = nextChange(s, t);
        if (change !== null && change < next) next = change;
      }
      if (next <= t) next = to;
      if (isOpenNow) open += next - t;
      t = next;
    }
    return open;
  }

  /**
   * The gate of a routing into a department (a transfer, a waiting room dispatched): read in the routing's
   * transaction, at its instant. Undefined while hours are off.
   */
  gateFor(departmentId: string | null): RoutingGate | undefined {
    if (!this.enabled) return undefined;
    return async (tx, candidates) => {
      const decision = await this.decide(tx, departmentId, this.clock.now());
      if (!decision.open) return new Set();
      return decision.gate ? decision.gate(tx, candidates) : null;
    };
  }

  /**
   * `livechat/config`'s part: whether the department (null: none) is open now, from the schedules kept in memory
   * (dropped at every committed livechat change, in every process). Each schedule's state is kept until its next
   * change, which is the same function of the schedule and the time evaluated once.
   */
  async openForConfig(departmentId: string | null): Promise<boolean> {
    if (!this.enabled) return true;
    const now = this.clock.now();
    this.current();
    let set = this.inUse;
    if (!set) {
      const revision = this.revision;
      set = await this.store.businessHours.forDecision(null);
      this.current();
      if (revision === this.revision) this.inUse = set;
    }
    const multiple = this.settings.get('Livechat_business_hour_type') === 'Multiple';
    const schedules = departmentId === null && multiple ? [set.defaultSchedule, ...set.custom.map((c) => c.schedule)] : [this.scheduleFor(set, departmentId)];
    return schedules.some((s) => this.stateAt(s, now));
  }

  private stateAt(s: BusinessHourRecord | null, now: Millis): boolean {
    if (!s || !s.active) return true;
    const known = this.states.get(s.id);
    if (known && known.from <= now && now < known.until) return known.open;
    const compiled = this.compiledOf(s);
    const open = isOpen(compiled, now);
    const until = nextChange(compiled, now) ?? now + 366 * DAY_MS;
    this.states.set(s.id, { from: now, until, open });
    return open;
  }

  /** `Livechat_out_of_office_message` with `{{nextOpen | "fallback"}}` expanded (`YYYY-MM-DD HH:mm <zone>`). */
  outOfOfficeMessage(decision: HoursDecision): string {
    const when = decision.nextOpen === null ? null : formatLocal(decision.zone, decision.nextOpen);
    return this.settings
      .get('Livechat_out_of_office_message')
      .replace(/\{\{\s*nextOpen\s*(?:\|\s*"([^"]*)"\s*)?\}\}/g, (_match, fallback: string | undefined) => when ?? fallback ?? '');
  }

  /** In the transaction that made a room wait: the job that dispatches it at the opening. */
  async scheduleOpening(tx: Store, decision: HoursDecision, now: Millis): Promise<void> {
    if (decision.openingScheduleId === null || decision.nextOpen === null) return;
    const pending = await tx.jobs.pendingForKey(decision.openingScheduleId);
    // An earlier pending opening of the same schedule stays: it dispatches this room too.
    if (pending.some((j) => j.kind === OPENING_JOB && j.dueAt <= decision.nextOpen!)) return;
    await tx.jobs.schedule({ kind: OPENING_JOB, key: decision.openingScheduleId, dueAt: decision.nextOpen }, now);
  }

  // ── REST (desk contract D1) ──

  private async wire(s: BusinessHourRecord, now: Millis, departments?: Array<{ id: string; name: string }>): Promise<BusinessHourWire> {
    const compiled = this.compiledOf(s);
    const open = !s.active || isOpen(compiled, now);
    const change = s.active ? nextChange(compiled, now) : null;
    const point = (day: BusinessHourWorkHour['day'], time: string, finish: boolean) => {
      const seconds = parseTime(time, finish) ?? 0;
      const utc = toUtc(s.timezone, day, seconds, now);
      return { time, utc, cron: utc };
    };
    return {
      _id: s.id,
      name: s.name,
      active: s.active,
      type: s.type,
      timezone: { name: s.timezone, utc: utcOffsetHours(s.timezone, now) },
      workHours: s.workHours.map((w) => ({ day: w.day, start: point(w.day, w.start, false), finish: point(w.day, w.finish, true), open: w.open })),
      holidays: s.holidays,
      ts: iso(s.ts),
      _updatedAt: iso(s.updatedAt),
      ...(departments && { departments: departments.map((d) => ({ _id: d.id, name: d.name })) }),
      openNow: open,
      nextChangeAt: change === null ? null : iso(change),
    };
  }

  private async withDepartments(items: BusinessHourRecord[], now: Millis): Promise<BusinessHourWire[]> {
    const custom = items.filter((s) => s.type === 'custom').map((s) => s.id);
    const departments = await this.store.businessHours.departmentsOf(custom);
    return Promise.all(items.map((s) => this.wire(s, now, s.type === 'custom' ? (departments.get(s.id) ?? []) : undefined)));
  }

  /** `GET livechat/business-hour`: by `_id`, else the default; an unknown `_id` answers nothing (Rocket.Chat). */
  async get(query: Static<typeof BusinessHourQuery>): Promise<{ businessHour?: BusinessHourWire }> {
    const found = query._id ? await this.store.businessHours.findById(query._id) : await this.store.businessHours.findDefault();
    if (!found) return {};
    const [businessHour] = await this.withDepartments([found], this.clock.now());
    return { businessHour: businessHour! };
  }

  /** `GET livechat/business-hours`: `?name=` substring, paged, by name (`sort` `{name: 1|-1}` only). */
  async list(query: Static<typeof BusinessHoursListQuery>) {
    const paging = parsePaging(query as PagingQuery, this.settings);
    const [key, direction] = paging.sort[0] ?? ['name', 1];
    if (paging.sort.length > 1 || key !== 'name') throw invalidSort(query.sort);
    const options: { name?: string; offset: number; count: number; descending: boolean } = { offset: paging.offset, count: paging.count, descending: direction === -1 };
    if (query.name) options.name = query.name;
    const { items, total } = await this.store.businessHours.list(options);
    return { businessHours: await this.withDepartments(items, this.clock.now()), count: items.length, offset: paging.offset, total };
  }

  /** `POST livechat/business-hours.save` (and DDP `livechat:saveBusinessHour`). */
  async save(body: Static<typeof BusinessHourSaveBody>): Promise<{ businessHour: BusinessHourWire }> {
    const zoneInput = body.timezoneName ?? (typeof body.timezone === 'string' ? body.timezone : body.timezone?.name);
    if (zoneInput !== undefined && !isValidTimeZone(zoneInput)) throw bareFailure('error-invalid-timezone');
    const time = (value: string, finish: boolean): number => {
      const seconds = parseTime(value, finish);
      if (seconds === null) throw invalidParams(`Invalid time "${value}"`);
      return seconds;
    };
    const workHours = body.workHours.map((w) => ({ day: w.day, start: w.start, finish: w.finish, open: w.open }));
    for (const w of workHours) {
      time(w.start, false);
      time(w.finish, true);
      if (w.open && parseTime(w.start) === parseTime(w.finish, true)) throw bareFailure('error-business-hour-finish-time-equals-start-time');
    }
    const holidays = (body.holidays ?? []).map((h): BusinessHourHoliday => {
      if (parseDate(h.date) === null) throw invalidParams(`Invalid holiday date "${h.date}"`);
      if ((h.start === undefined) !== (h.finish === undefined)) throw invalidParams('A holiday has both start and finish, or neither');
      if (h.start !== undefined && h.finish !== undefined) {
        const start = time(h.start, false);
        const finish = time(h.finish, true);
        if (start === finish) throw bareFailure('error-business-hour-finish-time-equals-start-time');
        if (finish < start) throw invalidParams('A holiday finishes after it starts');
      }
      return { date: h.date, ...(h.name !== undefined && { name: h.name }), ...(h.start !== undefined && { start: h.start, finish: h.finish! }) };
    });
    const departmentIds =
      body.type === 'custom' && body.departmentsToApplyBusinessHour !== undefined
        ? [...new Set(body.departmentsToApplyBusinessHour.split(',').map((d) => d.trim()).filter((d) => d !== ''))]
        : null;
    if (body.type === 'custom' && body.name.trim() === '') throw invalidParams('The name of a custom business hour must not be empty');
    try {
      const saved = await this.store.transaction(async (tx) => {
        const now = this.clock.now();
        const existing = body.type === 'default' ? await tx.businessHours.findDefault() : body._id ? await tx.businessHours.findById(body._id) : null;
        if ((body.type === 'default' && !existing) || (body.type === 'custom' && body._id && existing?.type !== 'custom')) {
          throw bareFailure('error-business-hour-not-found');
        }
        if (departmentIds) {
          for (const id of departmentIds) if (!(await tx.departments.findById(id))) throw bareFailure('error-invalid-department');
        }
        const fields = {
          name: body.name,
          active: body.active,
          timezone: canonicalTimeZone(zoneInput ?? existing?.timezone ?? 'UTC'),
          workHours,
          holidays,
        };
        let record: BusinessHourRecord;
        if (existing) {
          record = (await tx.businessHours.update(existing.id, fields, now))!;
        } else {
          record = { id: newId(), type: 'custom', ts: now, updatedAt: now, ...fields };
          await tx.businessHours.insert(record);
        }
        if (departmentIds) await tx.businessHours.setDepartments(record.id, departmentIds);
        await this.rescheduleOpenings(tx, now);
        return record;
      });
      const [businessHour] = await this.withDepartments([saved], this.clock.now());
      return { businessHour: businessHour! };
    } catch (error) {
      if (error instanceof ConflictError) throw bareFailure('error-business-hour-name-already-in-use');
      throw error;
    }
  }

  /** `POST livechat/business-hours.remove` (and DDP `livechat:removeBusinessHour`): its departments revert to the default. */
  async remove(body: Static<typeof BusinessHourRemoveBody>): Promise<void> {
    if (body.type === 'default' || body._id === DEFAULT_BUSINESS_HOUR_ID) throw bareFailure('error-cannot-remove-default-business-hour');
    await this.store.transaction(async (tx) => {
      const existing = await tx.businessHours.findById(body._id);
      if (!existing) throw bareFailure('error-business-hour-not-found');
      if (existing.type === 'default') throw bareFailure('error-cannot-remove-default-business-hour');
      await tx.businessHours.deleteCustom(existing.id);
      await tx.jobs.cancel(OPENING_JOB, existing.id);
      await this.rescheduleOpenings(tx, this.clock.now());
    });
  }

  /**
   * After a schedule changed, in its transaction: while rooms wait in the queue, a dispatch at once — it routes
   * those whose department is open now and schedules the next opening of the others' schedules.
   */
  private async rescheduleOpenings(tx: Store, now: Millis): Promise<void> {
    if ((await tx.businessHours.queuedRooms(1)).length > 0) await tx.jobs.schedule({ kind: OPENING_JOB, key: CHANGED_KEY, dueAt: now }, now);
  }
}

/** `YYYY-MM-DD HH:mm <zone>` of an instant in a zone. */
export function formatLocal(zone: string, t: Millis): string {
  const { day, seconds } = localTime(zone, t);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${formatDay(day)} ${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')} ${zone}`;
}
