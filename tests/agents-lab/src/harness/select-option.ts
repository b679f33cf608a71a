import type { LabRun } from './lab-run.ts';

const CURSOR = /^\s*[│┃|]?\s*[❯›>●▶→]\s*/;
const DOWN = '\x1b[B';
/** How long an answered menu may take to leave the screen (ms). */
const MENU_GONE_WAIT_MS = 10_000;

/**
 * Moves a menu's selection cursor to the option whose line matches `option` and presses Enter.
 * Reads the rendered screen between key presses (menus differ by version: numbered or not,
 * default first or last).
 */
export async function selectOption(run: LabRun, option: RegExp, maxMoves = 8): Promise<void> {
  for (let moves = 0; moves <= maxMoves; moves++) {
    const lines = run.screen();
    const cursorLine = [...lines].reverse().find((l) => CURSOR.test(l) && /\S/.test(l.replace(CURSOR, '')));
    if (cursorLine !== undefined && option.test(cursorLine)) {
      run.press('\r');
      // Why: a slow agent redraws late; until the menu is gone a caller reading the screen would
      // take it for still open and answer it again (into whatever comes after it).
      const deadline = Date.now() + MENU_GONE_WAIT_MS;
      while (Date.now() < deadline && run.screen().some((l) => option.test(l))) {
        await new Promise((r) => setTimeout(r, 100));
      }
      return;
    }
    if (!lines.some((l) => option.test(l))) {
      throw new Error(`no option ${option} on screen:\n${lines.join('\n')}`);
    }
    run.press(DOWN);
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`could not move the cursor to ${option}:\n${run.screenText()}`);
}
