import { AGENT_FACTS } from '@orca/shared/agents';
import type { AgentId } from '../agent-ids.ts';
import { TITLE_MEMO_ENTRIES } from '../limits.ts';
import type { AgentStatus } from '../types.ts';
import { isShellName, TITLE_AGENT_TOKENS } from './agent-names.ts';

/** How a title earned its status. */
export type TitleKind =
  | 'management'
  | 'shell'
  | 'opencode-native'
  | 'activity-only'
  | 'name-only'
  | 'explicit'
  | 'none';

/** What a pane title says. */
export interface TitleClass {
  status: AgentStatus;
  agent: AgentId | null;
  kind: TitleKind;
}

const BRAILLE = /[\u2800-\u28ff]/;
const QUARTER = /[\u25d0-\u25d3]/;
// Why: a keyword counts only as a whole word — never inside a path segment or a longer word.
const LEFT = String.raw`(?<![\w./\\-])`;
const RIGHT = String.raw`(?![\w-])`;
const PERMISSION_WORDS = new RegExp(`${LEFT}(?:action required|permissions?|waiting)${RIGHT}`, 'i');
const IDLE_WORDS = new RegExp(`${LEFT}(?:ready|idle|done)${RIGHT}`, 'i');
const WORKING_WORDS = new RegExp(`${LEFT}(?:working|thinking|running)${RIGHT}`, 'i');
const escapeRegExp = (word: string): string => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NAME_TOKEN = new RegExp(`${LEFT}(${Object.keys(TITLE_AGENT_TOKENS).map(escapeRegExp).join('|')})${RIGHT}`, 'gi');
/** Qwen Code 0.24.4's own title (agents lab): `Qwen - <dir>`, with `◐︎` while it works, `✳︎` at a confirmation. */
const QWEN_NATIVE = /^(?:([\u25d0-\u25d3\u2733])\s+)?Qwen - /;
const OPENCODE_NATIVE = /^(?:[^|]*\|\s*)?(?:([\u25a3\u25d0-\u25d3\u2800-\u28ff])\s*)?OC \| /;
const PI_MARKER = /^(π|Pi|OMP) ([:!>])(?:\s|$)/;
const PI_SYNTHETIC = /^(?:([\u2800-\u28ff])\s+)?(pi|omp)(?:\s+-\s+(action required|ready|idle|done))?\s*$/i;
const DSH = /(?<![\w-])dsh(?![\w-])/i;

const NONE: TitleClass = { status: null, agent: null, kind: 'none' };
const memo = new Map<string, TitleClass>();

/**
 * Classify a terminal title (§3): first matching rule wins. Memoized (LRU).
 *
 * @example
 * classifyTitle('✳ Claude Code'); // { status: 'idle', agent: 'claude', kind: 'explicit' }
 * classifyTitle('⠋ Fixing the build'); // { status: 'working', agent: null, kind: 'explicit' }
 */
export function classifyTitle(text: string): TitleClass {
  const hit = memo.get(text);
  if (hit) {
    memo.delete(text);
    memo.set(text, hit);
    return hit;
  }
  const result = classifyUncached(typeof text === 'string' ? text : '');
  memo.set(text, result);
  if (memo.size > TITLE_MEMO_ENTRIES) {
    const oldest = memo.keys().next();
    if (!oldest.done) memo.delete(oldest.value);
  }
  return result;
}

/** The agent named by the first agent-name token of a title, if any. */
export function titleAgent(text: string): { found: boolean; agent: AgentId | null } {
  NAME_TOKEN.lastIndex = 0;
  const m = NAME_TOKEN.exec(text);
  if (!m || m[1] === undefined) return { found: false, agent: null };
  return { found: true, agent: TITLE_AGENT_TOKENS[m[1].toLowerCase()] ?? null };
}

function classifyUncached(raw: string): TitleClass {
  // Why: a glyph may carry a text-presentation selector (Qwen Code 0.24.4 sets `✳︎ Qwen - <dir>`).
  const text = raw.replace(/[\uFE0E\uFE0F]/g, '').trim();
  if (text === '') return NONE;
  const lower = text.toLowerCase();
  const named = titleAgent(text);

  // 1. management, bare Cursor Agent, shells
  if (lower === 'claude agents' || lower.startsWith('claude agents ')) {
    return { status: null, agent: 'claude', kind: 'management' };
  }
  if (lower === 'cursor agent') return { status: null, agent: 'cursor', kind: 'none' };
  const firstToken = text.split(/\s+/)[0] ?? '';
  if (isShellName(firstToken.replace(/:$/, ''))) return { status: null, agent: null, kind: 'shell' };

  // 2. OpenCode native
  const oc = OPENCODE_NATIVE.exec(text);
  if (oc) {
    const glyph = oc[1];
    const spinning = glyph !== undefined && (BRAILLE.test(glyph) || QUARTER.test(glyph));
    return { status: spinning ? 'working' : 'idle', agent: 'opencode', kind: 'opencode-native' };
  }

  // 2b. Qwen Code native: `Qwen - <dir>` at rest, `◐ …` working, `✳ …` asking to confirm a tool
  const qwen = QWEN_NATIVE.exec(text);
  if (qwen) {
    const glyph = qwen[1];
    const status: AgentStatus = glyph === undefined ? 'idle' : glyph === '✳' ? 'permission' : 'working';
    return { status, agent: 'qwen', kind: 'explicit' };
  }

  // 3. Pi / OMP marker
  const pi = PI_MARKER.exec(text);
  if (pi) {
    const agent: AgentId = pi[1] === 'OMP' ? 'omp' : 'pi';
    const status: AgentStatus = pi[2] === ':' ? 'working' : pi[2] === '!' ? 'permission' : 'idle';
    return { status, agent, kind: 'explicit' };
  }

  // 4. Gemini glyphs (not DSH titles, whose ✦ means rest)
  const lead = text.codePointAt(0);
  const leadChar = lead === undefined ? '' : String.fromCodePoint(lead);
  if (!DSH.test(text)) {
    if (leadChar === '✋') return { status: 'permission', agent: 'gemini', kind: 'explicit' };
    if (leadChar === '✦' || leadChar === '⏲') return { status: 'working', agent: 'gemini', kind: 'explicit' };
    if (leadChar === '◇') return { status: 'idle', agent: 'gemini', kind: 'explicit' };
  }

  // 5. Synthetic pi/omp
  const syn = PI_SYNTHETIC.exec(text);
  if (syn && (syn[1] !== undefined || syn[3] !== undefined)) {
    const agent: AgentId = syn[2]?.toLowerCase() === 'omp' ? 'omp' : 'pi';
    const suffix = syn[3]?.toLowerCase();
    const status: AgentStatus = suffix === 'action required' ? 'permission' : suffix !== undefined ? 'idle' : 'working';
    return { status, agent, kind: 'explicit' };
  }

  // 6. Claude ✳, legacy π
  if (text === '✳' || text.startsWith('✳ ')) return { status: 'idle', agent: 'claude', kind: 'explicit' };
  if (text === 'π' || text.startsWith('π ')) return { status: 'idle', agent: 'pi', kind: 'explicit' };

  // 7. spinners
  if (BRAILLE.test(leadChar)) return { status: 'working', agent: named.agent, kind: 'explicit' };
  if (QUARTER.test(leadChar)) return { status: 'working', agent: named.agent, kind: 'activity-only' };

  // 8. gate
  if (!named.found) return NONE;

  // 9. keywords and prefixes
  if (PERMISSION_WORDS.test(text)) return { status: 'permission', agent: named.agent, kind: 'explicit' };
  if (IDLE_WORDS.test(text)) return { status: 'idle', agent: named.agent, kind: 'explicit' };
  if (WORKING_WORDS.test(text)) return { status: 'working', agent: named.agent, kind: 'explicit' };
  if (text.startsWith('. ')) return { status: 'working', agent: named.agent, kind: 'explicit' };
  if (text.startsWith('* ')) return { status: 'idle', agent: named.agent, kind: 'explicit' };
  if (named.agent !== null && AGENT_FACTS[named.agent].titleNameOnly)
    return { status: null, agent: named.agent, kind: 'name-only' };
  return { status: 'idle', agent: named.agent, kind: 'name-only' };
}
