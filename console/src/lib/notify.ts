/**
 * New-chat and new-message alerts: a short tone (Web Audio, no file to load)
 * and a browser notification when the agent allowed them and the tab is hidden.
 */
let audio: AudioContext | undefined;

export function playTone(): void {
  try {
    audio ??= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch {
    // No audio (autoplay policy before any click, or no device): the title and list still show it.
  }
}

export function notificationsSupported(): boolean {
  return typeof Notification !== 'undefined';
}

export function notify(title: string, body: string, onClick?: () => void): void {
  playTone();
  if (!notificationsSupported() || Notification.permission !== 'granted' || !document.hidden) return;
  const n = new Notification(title, { body, tag: title });
  n.onclick = () => {
    window.focus();
    onClick?.();
    n.close();
  };
}

/**
 * Ids that appeared since the previous call (not on the first call: what is
 * there when the console opens is not "new").
 */
export function createArrivalTracker() {
  let known: Set<string> | null = null;
  return (ids: string[]): string[] => {
    const fresh = known ? ids.filter((id) => !known!.has(id)) : [];
    known = new Set(ids);
    return fresh;
  };
}
