import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'smol-toml';
import { startResponsesServer } from '../model/openai-responses.ts';
import { type AgentProfile, LAB_API_KEY, type SeedContext } from './profile.ts';

/** `CODEX_HOME` of a lab run. */
export function codexHome(home: string): string {
  return path.join(home, '.codex');
}

function seedCodex(ctx: SeedContext): void {
  const dir = codexHome(ctx.home);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const config: Record<string, unknown> = {
    model: 'gpt-5',
    model_provider: 'lab',
    approval_policy: 'on-request',
    sandbox_mode: 'read-only',
    check_for_update_on_startup: false,
    model_providers: {
      lab: {
        name: 'lab',
        base_url: `${ctx.server.url}/v1`,
        wire_api: 'responses',
        env_key: 'LAB_OPENAI_API_KEY',
        supports_websockets: false,
        request_max_retries: 0,
        stream_max_retries: 0,
      },
    },
  };
  if (ctx.trustProject) config.projects = { [ctx.project]: { trust_level: 'trusted' } };
  else {
    // Why: Codex asks about folder trust only for a git work tree and when no approval policy is set.
    delete config.approval_policy;
    delete config.sandbox_mode;
    execFileSync('git', ['init', '-q', ctx.project], { stdio: 'ignore' });
  }
  fs.writeFileSync(path.join(dir, 'config.toml'), `${stringify(config)}\n`, { mode: 0o600 });
}

/** Codex against the OpenAI Responses API stand-in (a `model_providers` entry in `CODEX_HOME`). */
export function codexProfile(): AgentProfile {
  return {
    agent: 'codex',
    build: 'codex',
    startServer: startResponsesServer,
    seedHome: seedCodex,
    env: (ctx) => ({ CODEX_HOME: codexHome(ctx.home), LAB_OPENAI_API_KEY: LAB_API_KEY }),
    argv: () => ['codex'],
    exitKeys: ['/exit', '\r'],
  };
}
