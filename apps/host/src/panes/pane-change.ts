import type { LivePane } from './live-pane.ts';

/**
 * Resolves after `delayMs`, at the pane's next change (a verdict evaluation finished), or when
 * `signal` aborts — whichever comes first. Never rejects.
 */
export function nextChange(pane: Pick<LivePane, 'onChange'>, delayMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, Math.max(0, delayMs));
    const off = pane.onChange(done);
    signal?.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      off();
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
