/** Options of `Host.createPane`. */
export interface CreatePaneOptions {
  readonly argv: readonly string[];
  readonly cwd?: string;
  readonly name?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly cols?: number;
  readonly rows?: number;
  /** Run inside this guest (its relay carries the pane's hook events). */
  readonly guest?: string;
}
