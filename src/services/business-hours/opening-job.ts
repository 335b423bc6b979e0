/**
 * The dispatch at a business-hours opening (desk contract D1, D10.7): a durable job (kind `OPENING_JOB`, key: the
 * schedule whose opening it is) written in the transaction that made a room wait, or that changed a schedule while
 * rooms wait. When it runs, the waiting rooms whose department is open now are routed, oldest first, each in its
 * own transaction that re-checks that the room still waits (so running the work twice is harmless); for the rooms
 * still closed, the next opening of their schedule is scheduled in the job's own transaction.
 */
import type { Clock, Millis } from '../../lib/time.js';
import type { Store } from '../../store/store.js';
import type { JobsService } from '../jobs.service.js';
import type { LivechatRouting } from '../livechat-routing.js';
import type { SettingsService } from '../settings.service.js';
import { OPENING_JOB, type BusinessHoursService, type HoursDecision } from './business-hours.service.js';

/** Waiting rooms one run looks at, oldest first. */
const BATCH = 500;

export function registerBusinessHoursOpening(deps: {
  store: Store;
  settings: SettingsService;
  clock: Clock;
  jobs: JobsService;
  routing: LivechatRouting;
  businessHours: BusinessHoursService;
}): void {
  const { store, settings, clock, jobs, routing, businessHours } = deps;
  jobs.register(OPENING_JOB, {
    async prepare(): Promise<Array<[string, Millis]>> {
      const auto = settings.get('Livechat_Routing_Method') === 'Auto_Selection';
      const decisions = new Map<string, HoursDecision>();
      const later = new Map<string, Millis>();
      for (const room of await store.businessHours.queuedRooms(BATCH)) {
        const key = room.departmentId ?? '';
        let decision = decisions.get(key);
        if (!decision) {
          decision = await businessHours.decide(store, room.departmentId, clock.now());
          decisions.set(key, decision);
        }
        if (!decision.open) {
          const id = decision.openingScheduleId;
          if (id !== null && decision.nextOpen !== null) later.set(id, Math.min(later.get(id) ?? Infinity, decision.nextOpen));
          continue;
        }
        // Manual_Selection: the room is in the queue, where agents take it.
        if (auto) await routing.dispatchQueued(room.rid);
      }
      return [...later];
    },
    async run(_job, tx, prepared) {
      const now = clock.now();
      for (const [scheduleId, dueAt] of prepared as Array<[string, Millis]>) {
        await businessHours.scheduleOpening(tx, { open: false, nextOpen: dueAt, zone: 'UTC', openingScheduleId: scheduleId, gate: null }, now);
      }
    },
  });
}
