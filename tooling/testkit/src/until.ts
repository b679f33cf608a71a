/** How long {@link until} polls before it fails, and how often it asks (ms). */
export const UNTIL_DEFAULTS = { timeoutMs: 30_000, intervalMs: 50 } as const;

/** What a probe answers: a value ends the wait; `undefined` or `false` means "not yet". */
export type UntilProbe<T> = () => T | undefined | false | Promise<T | undefined | false>;

/**
 * Polls `probe` until it answers something other than `undefined`/`false`, and returns that
 * answer; throws `timed out waiting for <what>` (with the last error a probe threw, as `cause`)
 * after `timeoutMs`. A probe that throws counts as "not yet".
 *
 * @example
 * await until('the pane to exit', () => host.showPane(h).exited !== undefined);
 * const row = await until('a stored row', () => store.rows(h)[0]);
 */
export async function until<T>(
  what: string,
  probe: UntilProbe<T>,
  opts: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? UNTIL_DEFAULTS.timeoutMs;
  const intervalMs = opts.intervalMs ?? UNTIL_DEFAULTS.intervalMs;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      throw new Error(`timed out waiting for ${what} (${timeoutMs} ms)`, lastError ? { cause: lastError } : undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
