import type { TerminalBackend, TerminalPort } from '@orca/wire/terminal-stream';

/** Names of every backend member the current `TerminalPort`/`TerminalBackend` contracts define. */
const PORT_MEMBERS = new Set([
  'cols',
  'rows',
  'write',
  'resize',
  'serialize',
  'onOutput',
  'sourceRanges',
  'onEnd',
  'release',
]);
const BACKEND_MEMBERS = new Set(['open']);

/**
 * A recording fake PTY: 120×40, offers source ranges, answers `echo X\r` with `X`, and logs every
 * backend member a host build asks for that it lacks.
 */
export class FakePty {
  readonly cols = 120;
  readonly rows = 40;
  readonly inputs: string[] = [];
  readonly missing: string[] = [];
  output = '$ ';
  readonly #listeners = new Set<(data: string) => void>();
  #onChange: () => void;

  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  backend(handle: string): TerminalBackend {
    const port = this.#port();
    const target: TerminalBackend = { open: (h) => (h === handle ? port : null) };
    return this.#recording(target, BACKEND_MEMBERS, 'backend');
  }

  #port(): TerminalPort {
    const target: TerminalPort = {
      cols: this.cols,
      rows: this.rows,
      sourceRanges: true,
      write: (data) => {
        this.inputs.push(data);
        this.#onChange();
        const m = /^echo (.*)\r$/.exec(data);
        const reply = `${data.replace(/\r$/, '')}\r\n${m?.[1] ?? ''}\r\n$ `;
        queueMicrotask(() => this.#emit(reply));
        return true;
      },
      resize: () => {},
      serialize: () => ({ data: this.output, cols: this.cols, rows: this.rows }),
      onOutput: (listener) => {
        this.#listeners.add(listener);
        return () => this.#listeners.delete(listener);
      },
    };
    return this.#recording(target, PORT_MEMBERS, 'port');
  }

  #emit(data: string): void {
    this.output += data;
    for (const l of this.#listeners) l(data);
  }

  #recording<T extends object>(target: T, members: ReadonlySet<string>, label: string): T {
    return new Proxy(target, {
      get: (t, prop, receiver) => {
        if (typeof prop === 'string' && !members.has(prop) && !(prop in t) && prop !== 'then' && prop !== 'toJSON') {
          this.missing.push(`${label}.${prop}`);
        }
        return Reflect.get(t, prop, receiver);
      },
    });
  }
}
