import type { LabRun } from './lab-run.ts';

const CURSOR = /^\s*[│┃|]?\s*[❯›>●▶→]\s*/;
const DOWN = '\x1b[B';

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
