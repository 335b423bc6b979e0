import type { ApiClient } from './client.js';
import type { Me } from './types.js';

/**
 * Sets the agent's livechat availability (`livechat/agent.status`). Routing also
 * needs the user's presence not to be `offline` (contract §8.1), and Parley has
 * no socket presence for REST clients, so going available also sets the user
 * `online` (`users.setStatus`) when they were offline — what an agent who
 * clicks "Available" means.
 */
export async function setAvailability(api: ApiClient, me: Me, available: boolean): Promise<void> {
  if (available && (me.status === undefined || me.status === 'offline')) {
    await api('users.setStatus', { method: 'POST', body: { status: 'online' } });
  }
  await api('livechat/agent.status', { method: 'POST', body: { status: available ? 'available' : 'not-available' } });
}
