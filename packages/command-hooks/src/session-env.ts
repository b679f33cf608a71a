import { isOrcaKey } from './env.ts';
import { MAX_SESSION_ENV_KEYS, MAX_SESSION_ENV_VALUE_CHARS } from './limits.ts';

const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Env exported by sessionStart hooks, per conversation, for one runner. Last writer wins; only
 * string values under valid names, at most `MAX_SESSION_ENV_KEYS` keys of at most
 * `MAX_SESSION_ENV_VALUE_CHARS` characters; `ORCA_*` never.
 */
export class SessionEnvStore {
  readonly #byConversation = new Map<string, Record<string, string>>();

  /** The env of one conversation (a copy), if any. */
  get(conversationId: string): Record<string, string> | undefined {
    const env = this.#byConversation.get(conversationId);
    return env === undefined ? undefined : { ...env };
  }

  /** Forget one conversation. */
  clear(conversationId: string): void {
    this.#byConversation.delete(conversationId);
  }

  /** Merge a sessionStart hook's env; returns the keys kept and dropped. */
  merge(conversationId: string, env: Readonly<Record<string, unknown>>): { accepted: string[]; dropped: string[] } {
    const current = this.#byConversation.get(conversationId) ?? {};
    const accepted: string[] = [];
    const dropped: string[] = [];
    for (const [key, value] of Object.entries(env)) {
      const fits = key in current || Object.keys(current).length < MAX_SESSION_ENV_KEYS;
      if (
        typeof value !== 'string' ||
        !ENV_KEY.test(key) ||
        isOrcaKey(key) ||
        value.length > MAX_SESSION_ENV_VALUE_CHARS ||
        !fits
      ) {
        dropped.push(key);
        continue;
      }
      current[key] = value;
      accepted.push(key);
    }
    this.#byConversation.set(conversationId, current);
    return { accepted, dropped };
  }
}
