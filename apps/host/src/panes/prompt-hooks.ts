import { samePrompt } from '@orca/agent-status/submit';
import { PROMPT_HOOK_OWED_MS, PROMPT_HOOKS_KEPT } from '../constants.ts';

/** One prompt-submit hook event of a pane: when it arrived and the prompt it carried (null: none). */
export interface PromptHookEntry {
  /** Position in the pane's sequence of prompt hooks (1, 2, …). */
  readonly seq: number;
  readonly at: number;
  readonly text: string | null;
}

/** The recent prompt-submit hook events of a pane, newest last; what a dispatch's proof reads. */
export interface PromptHookLog {
  record(at: number, text: string | null): void;
  /**
   * A prompt was proven by the screen before its hook arrived: its hook is still owed, and when it
   * comes (within {@link PROMPT_HOOK_OWED_MS}) it proves nothing else — not the next identical prompt.
   */
  owe(prompt: string, at: number): void;
  /** The sequence number of the newest entry (0 before the first). */
  last(): number;
  /** The entries after `seq`, oldest first, owed ones left out (only the newest {@link PROMPT_HOOKS_KEPT} are kept). */
  after(seq: number): readonly PromptHookEntry[];
}

/** A bounded log of one pane's prompt hooks. */
export function createPromptHookLog(): PromptHookLog {
  const entries: PromptHookEntry[] = [];
  const owed: { prompt: string; until: number }[] = [];
  let seq = 0;
  return {
    record(at, text) {
      seq += 1;
      const live = owed.filter((o) => o.until >= at);
      owed.splice(0, owed.length, ...live);
      const paid = owed.findIndex((o) => text === null || samePrompt(o.prompt, text));
      if (paid >= 0) {
        owed.splice(paid, 1);
        return;
      }
      entries.push({ seq, at, text });
      if (entries.length > PROMPT_HOOKS_KEPT) entries.splice(0, entries.length - PROMPT_HOOKS_KEPT);
    },
    owe(prompt, at) {
      owed.push({ prompt, until: at + PROMPT_HOOK_OWED_MS });
    },
    last: () => seq,
    after: (n) => entries.filter((e) => e.seq > n),
  };
}
