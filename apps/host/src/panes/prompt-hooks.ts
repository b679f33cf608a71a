import { PROMPT_HOOKS_KEPT } from '../constants.ts';

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
  /** The sequence number of the newest entry (0 before the first). */
  last(): number;
  /** The entries after `seq`, oldest first (only the newest {@link PROMPT_HOOKS_KEPT} are kept). */
  after(seq: number): readonly PromptHookEntry[];
}

/** A bounded log of one pane's prompt hooks. */
export function createPromptHookLog(): PromptHookLog {
  const entries: PromptHookEntry[] = [];
  let seq = 0;
  return {
    record(at, text) {
      seq += 1;
      entries.push({ seq, at, text });
      if (entries.length > PROMPT_HOOKS_KEPT) entries.splice(0, entries.length - PROMPT_HOOKS_KEPT);
    },
    last: () => seq,
    after: (n) => entries.filter((e) => e.seq > n),
  };
}
