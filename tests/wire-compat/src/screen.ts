import xterm from '@xterm/headless';

const { Terminal } = xterm;

/** A real terminal emulator (`@xterm/headless`) rendering what a client delivers. */
export class Screen {
  readonly #term: InstanceType<typeof Terminal>;
  #pending = 0;
  readonly #onChange: () => void;

  constructor(cols: number, rows: number, onChange: () => void) {
    this.#term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 1000 });
    this.#onChange = onChange;
  }

  /** True while writes are still being parsed. */
  get busy(): boolean {
    return this.#pending > 0;
  }

  write(data: string): void {
    this.#pending++;
    this.#term.write(data, () => {
      this.#pending--;
      this.#onChange();
    });
  }

  reset(data: string): void {
    this.#term.reset();
    this.write(data);
  }

  /** The whole buffer as text, trailing blank lines dropped. */
  text(): string {
    const buffer = this.#term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines.join('\n');
  }

  dispose(): void {
    this.#term.dispose();
  }
}

/** Renders `data` in a fresh emulator and returns its text (the reference rendering). */
export async function renderReference(data: string, cols: number, rows: number): Promise<string> {
  return new Promise((resolveText) => {
    const term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 1000 });
    term.write(data, () => {
      const buffer = term.buffer.active;
      const lines: string[] = [];
      for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
      while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
      term.dispose();
      resolveText(lines.join('\n'));
    });
  });
}
