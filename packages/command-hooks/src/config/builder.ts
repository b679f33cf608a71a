import type { z } from 'zod';
import type { CanonicalEvent } from '../events.ts';
import type { CommandHook, Dialect } from '../hook.ts';
import { echoValue } from '../internal/text.ts';
import { expectationOf, pointerSegment } from '../internal/zod-issues.ts';
import { DEFAULT_TIMEOUT_MS, MAX_TIMER_MS } from '../limits.ts';
import { compileMatcher } from '../matchers.ts';
import type { ConfigErrorCode, ConfigIssue, ConfigWarningCode } from './issues.ts';
import type { JsonSource } from './json-source.ts';
import { isManagedHookCommand } from './managed.ts';

/** Where a file's hooks run and how their ids are labelled. */
export interface ConfigPlacement {
  file: string;
  /** Label used in hook ids and records (`~/.claude/settings.json`). */
  label: string;
  cwd: string;
  projectDir: string;
}

/** Hooks and issues of one or more files. */
export interface ParsedHooks {
  hooks: CommandHook[];
  warnings: ConfigIssue[];
  errors: ConfigIssue[];
}

type Segment = string | number;

/** Accumulates hooks and positioned issues while one file is parsed. */
export class ConfigBuilder {
  readonly result: ParsedHooks = { hooks: [], warnings: [], errors: [] };

  constructor(
    readonly dialect: Dialect,
    readonly placement: ConfigPlacement,
    readonly source: JsonSource,
  ) {}

  pointer(path: readonly Segment[]): string {
    return path.map((p) => `/${pointerSegment(p)}`).join('');
  }

  private issue(code: ConfigIssue['code'], path: readonly Segment[], message: string): ConfigIssue {
    const at = this.source.locate(path);
    return {
      code,
      file: this.placement.file,
      path: this.pointer(path),
      ...(at.line !== undefined ? { line: at.line } : {}),
      ...(at.column !== undefined ? { column: at.column } : {}),
      message,
    };
  }

  warn(code: ConfigWarningCode, path: readonly Segment[], message: string): void {
    this.result.warnings.push(this.issue(code, path, `${this.pointer(path) || '/'}: ${message}`));
  }

  error(path: readonly Segment[], message: string, code: ConfigErrorCode = 'ORCA_CMDHOOKS_CONFIG_INVALID'): void {
    this.result.errors.push(this.issue(code, path, message));
  }

  /** Report a zod failure at `path` (each issue positioned and echoed). */
  zodError(path: readonly Segment[], error: z.ZodError, value: unknown): void {
    for (const issue of error.issues) {
      const full = [...path, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
      let got: unknown = value;
      for (const key of issue.path) {
        got = typeof got === 'object' && got !== null ? (got as Record<PropertyKey, unknown>)[key] : undefined;
      }
      const expected = expectationOf(issue.message);
      const message =
        issue.code === 'unrecognized_keys'
          ? `${this.pointer(full) || '/'}: unknown key(s) ${issue.keys.join(', ')}`
          : `${this.pointer(full) || '/'}: ${expected}, got ${echoValue(got)}`;
      this.result.errors.push(this.issue('ORCA_CMDHOOKS_CONFIG_INVALID', full, message));
    }
  }

  /** Seconds from the wire → ms: positive finite ×1000 clamped; anything else the dialect default. */
  timeoutMs(seconds: number | null | undefined): number {
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0)
      return DEFAULT_TIMEOUT_MS[this.dialect];
    return Math.min(Math.ceil(seconds * 1000), MAX_TIMER_MS);
  }

  /** Add a hook unless its matcher is invalid or it is one of Orca's managed status scripts. */
  add(
    path: readonly Segment[],
    fields: { event: CanonicalEvent; wireEvent: string; command: string; matcher?: string } & Partial<CommandHook>,
  ): void {
    if (isManagedHookCommand(fields.command)) {
      this.warn('managed-hook', path, `skipped Orca's own status hook ${echoValue(fields.command)}`);
      return;
    }
    if (fields.matcher !== undefined && compileMatcher(this.dialect, fields.matcher) instanceof Error) {
      this.warn('invalid-matcher', path, `invalid matcher ${echoValue(fields.matcher)}; the hook never fires`);
      return;
    }
    const hook: CommandHook = {
      id: `${this.dialect}:${this.placement.label}#${this.pointer(path)}`,
      dialect: this.dialect,
      cwd: this.placement.cwd,
      projectDir: this.placement.projectDir,
      source: this.placement.label,
      timeoutMs: DEFAULT_TIMEOUT_MS[this.dialect],
      onFailure: 'open',
      ...fields,
    };
    if (hook.matcher === undefined) delete hook.matcher;
    this.result.hooks.push(hook);
  }
}
