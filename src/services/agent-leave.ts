/**
 * The livechat leave action (Rocket.Chat's `Livechat_agent_leave_action`): once an agent has been absent — no
 * realtime session anywhere (`PresenceService`) — for `Livechat_agent_leave_action_timeout` seconds, her open chats go
 * back to routing (`forward`, Parley's default) or are closed (`close`); `none` leaves them. A network blip shorter
 * than the timeout keeps her chats; a departure does not strand them.
 *
 * Removing an agent or deactivating her (`releaseAgentChats`) returns her chats the same way, at once.
 *
 * The job is written in the transaction that set her offline and cancelled in the one that set her online again, so
 * neither a crash nor a quick return can get it wrong; when it fires it re-checks that she is still absent and acts
 * on each room only while she still serves it (so running its work twice is harmless).
 */
import type { Clock } from '../lib/time.js';
import type { LivechatRoom, Store } from '../store/store.js';
import type { JobsService } from './jobs.service.js';
import type { LivechatRouting } from './livechat-routing.js';
import type { PresenceService } from './presence.service.js';
import { BOT_USER_ID } from './seed.service.js';
import type { SettingsService } from './settings.service.js';

export const AGENT_LEAVE_JOB = 'livechat.agent-leave';

/**
 * An agent removed (role taken away) or deactivated: her open chats go back to routing at once, through the same
 * job, written in the transaction of the removal (the job's work follows its commit; it never strands a chat).
 */
export async function releaseAgentChats(tx: Store, userId: string, now: number): Promise<void> {
  await tx.jobs.schedule({ kind: AGENT_LEAVE_JOB, key: userId, dueAt: now, payload: { release: true } }, now);
}

const ROCKET_CAT = { id: BOT_USER_ID, username: 'rocket.cat', name: null, type: 'user' as const };

export function registerAgentLeave(deps: {
  store: Store;
  settings: SettingsService;
  clock: Clock;
  jobs: JobsService;
  presence: PresenceService;
  routing: LivechatRouting;
}): void {
  const { store, settings, clock, jobs, presence, routing } = deps;
  presence.setHooks({
    async offline(tx, userId) {
      if (settings.get('Livechat_agent_leave_action') === 'none') return;
      const user = await tx.users.findById(userId);
      if (!user?.roles.includes('livechat-agent')) return;
      const now = clock.now();
      await tx.jobs.schedule({ kind: AGENT_LEAVE_JOB, key: userId, dueAt: now + settings.get('Livechat_agent_leave_action_timeout') * 1000 }, now);
    },
    async online(tx, userId) {
      await tx.jobs.cancel(AGENT_LEAVE_JOB, userId);
    },
  });
  jobs.register(AGENT_LEAVE_JOB, {
    // The rooms are moved one transaction each, outside the job's own (each re-checks that she still serves it).
    async prepare(job) {
      const release = (job.payload as { release?: boolean } | null)?.release === true;
      const agent = await store.users.findById(job.key);
      if (!agent || (!release && agent.statusConnection !== 'offline')) return;
      const action = release ? 'forward' : settings.get('Livechat_agent_leave_action');
      if (action === 'none') return;
      for (const room of await store.livechatRooms.openServedBy(agent.id)) await leave(room, agent.id, action);
    },
    async run() {},
  });

  async function leave(room: LivechatRoom, agentId: string, action: 'forward' | 'close'): Promise<void> {
    if (action === 'close') {
      await routing.closeServedBy(room, agentId, { closer: 'user', by: ROCKET_CAT, comment: settings.get('Livechat_agent_leave_comment') });
    } else {
      await routing.returnToRouting(room, agentId, ROCKET_CAT);
    }
  }
}
