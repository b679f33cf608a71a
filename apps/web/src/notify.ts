/** A host notification (`notify.watch`): what the page shows, rings and notifies. */
export interface NotifyEvent {
  id: string;
  kind: 'waiting' | 'resolved' | 'escalated' | 'done' | 'error' | 'test';
  at: number;
  handle: string | null;
  name: string | null;
  agent: string | null;
  reason: string | null;
  resolves?: string;
  text: string;
  title: string;
}

/** One line of the "needs you" banner. */
export interface NeedsYou {
  id: string;
  handle: string | null;
  text: string;
  state: 'open' | 'resolved';
}

/** How many resolved lines the banner keeps. */
const RESOLVED_KEPT = 3;

/**
 * The banner after `event`: a wait adds its line, an escalation updates it, a resolution marks
 * it resolved (the newest few resolved lines stay, so the answer is seen), other kinds show once.
 */
export function applyNotifyEvent(lines: readonly NeedsYou[], event: NotifyEvent): NeedsYou[] {
  if (event.kind === 'resolved') {
    const next = lines.map((l) =>
      l.id === event.resolves ? { ...l, state: 'resolved' as const, text: event.text } : l,
    );
    const resolved = next.filter((l) => l.state === 'resolved');
    const drop = new Set(resolved.slice(0, Math.max(0, resolved.length - RESOLVED_KEPT)).map((l) => l.id));
    return next.filter((l) => !drop.has(l.id));
  }
  if (event.kind === 'escalated') return lines.map((l) => (l.id === event.resolves ? { ...l, text: event.text } : l));
  return [
    ...lines.filter((l) => l.id !== event.id),
    { id: event.id, handle: event.handle, text: event.text, state: 'open' },
  ];
}

/** Shows a browser notification for `event` (only when the user opted in and allowed it). */
export function showNotification(event: NotifyEvent): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  new Notification(event.title, { body: event.text, tag: event.handle ?? event.id });
}

/** A short two-tone chime through Web Audio (no file to fetch). */
export function chime(): void {
  try {
    const ctx = new AudioContext();
    const gain = ctx.createGain();
    gain.gain.value = 0.05;
    gain.connect(ctx.destination);
    for (const [i, freq] of [880, 660].entries()) {
      const osc = ctx.createOscillator();
      osc.frequency.value = freq;
      osc.connect(gain);
      osc.start(ctx.currentTime + i * 0.15);
      osc.stop(ctx.currentTime + i * 0.15 + 0.12);
    }
    setTimeout(() => void ctx.close(), 600);
  } catch {
    // no audio here
  }
}
