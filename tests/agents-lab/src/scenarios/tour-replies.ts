import path from 'node:path';
import { byPrompt, type Reply, type ReplyPicker } from '../model/scenario.ts';
import type { AgentScreens } from './agent-screens.ts';

/** The prompts of the tour (each one key of the reply table). */
export const TOUR_PROMPTS = {
  stream: 'tell me a long story',
  slowTool: 'run the slow tool',
  edit: 'edit the readme',
  write: 'write a new file',
  fetch: 'fetch the lab page',
  cancel: 'stream and be cancelled',
  error: 'trigger an api error',
} as const;

/** Files the tour's tools would touch: their absence proves a refused injection approved nothing. */
export const TOUR_FILES = {
  slowTool: 'slow-tool-ran.txt',
  write: 'written-by-the-lab.txt',
  editMark: 'edited by the lab',
} as const;

const STORY_WORDS = ['a lighthouse', 'a river', 'an old map', 'a locked door', 'a kite', 'a quiet town', 'a storm'];

/** A long text with no repeated chunk (Gemini CLI's loop detection stops a turn that repeats itself). */
export function storyText(sentences: number): string {
  return Array.from(
    { length: sentences },
    (_, i) => `Part ${i + 1} is about ${STORY_WORDS[i % STORY_WORDS.length]} (${(i * 37) % 101}).`,
  ).join(' ');
}

/** The page the fetch approval asks about (port 9, discard: nothing listens there). */
export const TOUR_FETCH_URL = 'http://127.0.0.1:9/lab-page';

/** The model's replies for every prompt of the tour. */
export function tourReplies(screens: AgentScreens, project: string): ReplyPicker {
  const error: Reply = { kind: 'error', status: screens.errorStatus ?? 500, message: 'lab: scripted API error' };
  return byPrompt({
    [TOUR_PROMPTS.stream]: [{ kind: 'slow-text', text: storyText(40), seconds: 7 }],
    [TOUR_PROMPTS.slowTool]: [
      {
        kind: 'tool',
        text: 'Running the slow tool.',
        call: {
          tool: 'shell',
          command: `${screens.slowToolWait ?? 'sleep 4'} && touch ${TOUR_FILES.slowTool}`,
          description: 'Run the slow tool',
        },
      },
      { kind: 'text', text: 'The slow tool finished.' },
    ],
    [TOUR_PROMPTS.edit]: [
      ...(screens.readBeforeEdit
        ? [{ kind: 'tool', call: { tool: 'read', path: path.join(project, 'README.md') } } as const]
        : []),
      {
        kind: 'tool',
        call: {
          tool: 'edit',
          path: path.join(project, 'README.md'),
          oldText: '# lab project',
          newText: `# ${TOUR_FILES.editMark}`,
        },
      },
      { kind: 'text', text: 'Edited.' },
    ],
    [TOUR_PROMPTS.write]: [
      { kind: 'tool', call: { tool: 'write', path: path.join(project, TOUR_FILES.write), content: 'hello\n' } },
      { kind: 'text', text: 'Written.' },
    ],
    [TOUR_PROMPTS.fetch]: [
      // Why: the fetch is never approved; a closed loopback port keeps it offline even if it were.
      { kind: 'tool', call: { tool: 'fetch', url: TOUR_FETCH_URL, prompt: 'Summarise the lab page' } },
      { kind: 'text', text: 'Fetched.' },
    ],
    [TOUR_PROMPTS.cancel]: [{ kind: 'slow-text', text: storyText(80), seconds: 30 }],
    [TOUR_PROMPTS.error]: Array.from({ length: screens.errorReplies }, () => error),
  });
}
