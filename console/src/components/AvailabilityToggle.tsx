import { useState } from 'react';
import { setAvailability } from '../api/availability.js';
import { isAgent, useConsole } from '../context.js';
import { errorText } from '../lib/errors.js';

/** The agent's livechat availability (`livechat/agent.status`), in the top bar on every page. */
export function AvailabilityToggle() {
  const { api, me, refreshMe } = useConsole();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!isAgent(me)) {
    return (
      <span className="availability off" title="Only agents can be available for chats">
        <span className="dot" aria-hidden="true" /> Not an agent
      </span>
    );
  }
  const available = me?.statusLivechat === 'available';
  async function toggle() {
    setBusy(true);
    setError(null);
    try {
      if (me) await setAvailability(api, me, !available);
      await refreshMe();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <span className="availability-wrap">
      <button
        type="button"
        role="switch"
        aria-checked={available}
        className={available ? 'availability on' : 'availability off'}
        onClick={() => void toggle()}
        disabled={busy}
      >
        <span className="dot" aria-hidden="true" /> {available ? 'Available' : 'Not available'}
      </button>
      {error && (
        <span className="error small" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
