/** Lines a release's screen gained and lost against the pinned release's screen of one moment. */
export interface ScreenDrift {
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

// Why: what differs between any two runs of one release (temp paths, versions, spinner frames,
// counters and durations) is not drift; it is written the same on both sides before comparing.
const VOLATILE: readonly [RegExp, string][] = [
  [/(?:\/tmp\/)?orca-lab-[^\s/│|)]+/g, '<tmp>'],
  [/\bv?\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?\b/g, '<version>'],
  [/[\u2800-\u28ff◐◓◑◒◴◷◶◵✶✻✽✢·*⠂]/g, '<spin>'],
  [/\b\d+(?:\.\d+)?\s?(?:ms|s|m|h|tokens?|k)\b/g, '<n>'],
  [/\d+/g, '<d>'],
  [/\s+/g, ' '],
];

/** A screen row as compared: volatile parts replaced, runs of blanks folded, edges trimmed. */
export function normaliseScreenLine(line: string): string {
  let out = line;
  for (const [pattern, replacement] of VOLATILE) out = out.replace(pattern, replacement);
  return out.trim();
}

function normalisedSet(lines: readonly string[]): Map<string, string> {
  const set = new Map<string, string>();
  for (const line of lines) {
    const key = normaliseScreenLine(line);
    if (key !== '' && !set.has(key)) set.set(key, line.trimEnd());
  }
  return set;
}

/**
 * The rows of `now` whose text the pinned screen never showed (`added`) and the pinned rows gone
 * from `now` (`removed`), compared as sets of normalised rows (a row moving is no change).
 */
export function screenDrift(pinned: readonly string[], now: readonly string[]): ScreenDrift {
  const before = normalisedSet(pinned);
  const after = normalisedSet(now);
  return {
    added: [...after].filter(([key]) => !before.has(key)).map(([, line]) => line),
    removed: [...before].filter(([key]) => !after.has(key)).map(([, line]) => line),
  };
}
