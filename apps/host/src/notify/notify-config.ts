import { readFileSync, statSync } from 'node:fs';
import { findNodeAtLocation, type ParseError, parse, parseTree, printParseErrorCode } from 'jsonc-parser';
import { z } from 'zod';
import { NOTIFY_CONFIG_RECHECK_MS } from '../constants.ts';
import { HostError } from '../errors.ts';

const SinkName = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'a sink name is letters, digits, _ or -');

const SinkSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('webhook'),
      url: z
        .string()
        .url()
        .refine((u) => /^https?:\/\//.test(u), 'an http(s) URL'),
      /** `json`: our payload with a Slack-compatible `text`; `ntfy`: the text as the body, title in headers. */
      format: z.enum(['json', 'ntfy']).default('json'),
      headers: z.record(z.string(), z.string()).optional(),
    })
    .strict(),
  z.object({ type: z.literal('desktop') }).strict(),
  z.object({ type: z.literal('web') }).strict(),
  z
    .object({
      type: z.literal('command'),
      command: z.string().min(1),
      timeoutSeconds: z.number().positive().max(300).optional(),
    })
    .strict(),
]);

const RuleSchema = z
  .object({
    on: z.enum(['waiting', 'done', 'error']),
    sinks: z.array(SinkName).min(1),
    /** `done` only: alert only after a turn at least this long. */
    minTurnSeconds: z.number().nonnegative().optional(),
    /** `waiting` only: still unanswered after this long, tell these sinks too. */
    escalate: z
      .object({ afterMinutes: z.number().positive(), sinks: z.array(SinkName).min(1) })
      .strict()
      .optional(),
  })
  .strict();

const ConfigSchema = z
  .object({
    rules: z.array(RuleSchema),
    sinks: z.record(SinkName, SinkSchema),
  })
  .strict();

/** A sink as configured. */
export type NotifySink = z.infer<typeof SinkSchema>;
/** A rule as configured. */
export type NotifyRule = z.infer<typeof RuleSchema>;
/** `notify.json` of the data dir. */
export type NotifyConfig = z.infer<typeof ConfigSchema>;

/** With no `notify.json`: tell the open boards when a pane starts waiting. */
export const DEFAULT_NOTIFY_CONFIG: NotifyConfig = {
  rules: [{ on: 'waiting', sinks: ['board'] }],
  sinks: { board: { type: 'web' } },
};

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/**
 * Parses `notify.json` (JSON with comments and trailing commas). Throws `ORCA_HOST_NOTIFY_CONFIG`
 * naming the file, line and what is wrong: a syntax error, a schema issue, or a rule naming a
 * sink that is not defined.
 *
 * @example
 * parseNotifyConfig('{ "rules": [{ "on": "waiting", "sinks": ["hook"] }], "sinks": { "hook": { "type": "webhook", "url": "http://127.0.0.1:9000/" } } }', 'notify.json');
 */
export function parseNotifyConfig(text: string, file: string): NotifyConfig {
  const errors: ParseError[] = [];
  const raw = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  const fail = (offset: number, what: string): never => {
    throw new HostError('ORCA_HOST_NOTIFY_CONFIG', `${file}:${lineOf(text, offset)}: ${what}`, {
      context: { file },
    });
  };
  const first = errors[0];
  if (first) fail(first.offset, `not valid JSON: ${printParseErrorCode(first.error)}`);
  const result = ConfigSchema.safeParse(raw);
  const tree = parseTree(text);
  const offsetOf = (path: (string | number)[]): number => {
    for (let n = path.length; n >= 0; n--) {
      const node = tree ? findNodeAtLocation(tree, path.slice(0, n)) : undefined;
      if (node) return node.offset;
    }
    return 0;
  };
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = (issue?.path ?? []).filter((p): p is string | number => typeof p !== 'symbol');
    fail(offsetOf(path), `${path.length > 0 ? `${path.join('.')}: ` : ''}${issue?.message ?? 'invalid'}`);
  }
  const config = result.data as NotifyConfig;
  for (const [i, rule] of config.rules.entries()) {
    for (const [key, names] of [
      ['sinks', rule.sinks],
      ['escalate', rule.escalate?.sinks ?? []],
    ] as const) {
      for (const name of names)
        if (!Object.hasOwn(config.sinks, name))
          fail(offsetOf(['rules', i, key]), `rules.${i}.${key}: no sink named "${name}" in "sinks"`);
    }
    if (rule.minTurnSeconds !== undefined && rule.on !== 'done')
      fail(offsetOf(['rules', i, 'minTurnSeconds']), `rules.${i}.minTurnSeconds: only a "done" rule has it`);
    if (rule.escalate && rule.on !== 'waiting')
      fail(offsetOf(['rules', i, 'escalate']), `rules.${i}.escalate: only a "waiting" rule escalates`);
  }
  return config;
}

/**
 * Reads `file` again when it changed (by mtime and size, looked at most once per
 * `NOTIFY_CONFIG_RECHECK_MS`: the engine asks on every status change); the default when it does
 * not exist. A broken file keeps the last good config and reports its error once per change.
 */
export function notifyConfigReader(
  file: string,
  onError: (error: Error) => void,
  clock: () => number = Date.now,
): () => NotifyConfig {
  let stamp = '';
  let config = DEFAULT_NOTIFY_CONFIG;
  let checkedAt = Number.NEGATIVE_INFINITY;
  return () => {
    const at = clock();
    if (at - checkedAt < NOTIFY_CONFIG_RECHECK_MS) return config;
    checkedAt = at;
    let now = 'absent';
    try {
      const st = statSync(file);
      now = `${st.mtimeMs}:${st.size}`;
    } catch {
      // absent: the default
    }
    if (now === stamp) return config;
    stamp = now;
    if (now === 'absent') config = DEFAULT_NOTIFY_CONFIG;
    else {
      try {
        config = parseNotifyConfig(readFileSync(file, 'utf8'), file);
      } catch (error) {
        onError(error as Error);
      }
    }
    return config;
  };
}
