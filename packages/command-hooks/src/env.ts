import { HOOK_DEPTH_ENV } from './limits.ts';

/** A process environment (values may be absent, as in `process.env`). */
export type EnvMap = Readonly<Record<string, string | undefined>>;

const LLM_CREDENTIAL_KEY =
  /^(ANTHROPIC|OPENAI|AZURE_OPENAI|GEMINI|GOOGLE|VERTEX|MISTRAL|GROQ|COHERE|DEEPSEEK|XAI|TOGETHER|FIREWORKS|OPENROUTER|PERPLEXITY|HF|HUGGINGFACE|LM_?STUDIO|CURSOR)_.*(API_KEY|AUTH_TOKEN|API_TOKEN|SECRET|SESSION_TOKEN)$/i;
const LLM_CREDENTIAL_EXACT = new Set(['CLAUDE_CODE_OAUTH_TOKEN', 'HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN']);

/** True when `key` names an LLM-provider credential the default scrubber drops. */
export function isLlmCredentialKey(key: string): boolean {
  return LLM_CREDENTIAL_KEY.test(key) || LLM_CREDENTIAL_EXACT.has(key.toUpperCase());
}

// Why: an environment variable may be named `__proto__`; plain assignment would set the prototype.
function setOwn(target: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The default `scrubEnv`: drops LLM-provider credentials (case-insensitive); tool tokens such as
 * `GITHUB_TOKEN`, `NPM_TOKEN`, `AWS_*` stay. Undefined values are dropped too.
 *
 * @example
 * scrubLlmCredentials({ ANTHROPIC_API_KEY: 'x', GITHUB_TOKEN: 'y' }); // → { GITHUB_TOKEN: 'y' }
 */
export function scrubLlmCredentials(env: EnvMap): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || isLlmCredentialKey(key)) continue;
    setOwn(out, key, value);
  }
  return out;
}

/** True for any `ORCA_*` key (case-insensitive): never passed from the host to a hook. */
export function isOrcaKey(key: string): boolean {
  return key.toUpperCase().startsWith('ORCA_');
}

/** `ORCA_HOOK_DEPTH` of an env: a run of ASCII digits, anything else 0. */
export function parseHookDepth(env: EnvMap): number {
  const raw = env[HOOK_DEPTH_ENV];
  if (raw === undefined || !/^\d+$/.test(raw)) return 0;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : Number.MAX_SAFE_INTEGER;
}

/**
 * A hook child's env, in layering order: scrubbed base env → dialect vars → session overlay →
 * `ORCA_HOOK_DEPTH` last. Every `ORCA_*` key of the base or session env is dropped whatever the
 * scrubber did; the dialect vars may add `ORCA_PROJECT_DIR` (orca dialect).
 */
export function buildChildEnv(input: {
  scrubbedBase: Readonly<Record<string, string | undefined>>;
  dialectVars: Readonly<Record<string, string>>;
  sessionEnv?: Readonly<Record<string, string>>;
  depth: number;
}): { env: Record<string, string>; droppedSessionKeys: string[] } {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.scrubbedBase)) {
    if (value === undefined || isOrcaKey(key)) continue;
    setOwn(env, key, value);
  }
  Object.assign(env, input.dialectVars);
  const droppedSessionKeys: string[] = [];
  for (const [key, value] of Object.entries(input.sessionEnv ?? {})) {
    if (isOrcaKey(key)) {
      droppedSessionKeys.push(key);
      continue;
    }
    setOwn(env, key, value);
  }
  env[HOOK_DEPTH_ENV] = String(input.depth + 1);
  return { env, droppedSessionKeys };
}
