import fs from 'node:fs';
import path from 'node:path';
import { LAB_CHAT_MODEL, startChatServer } from '../model/openai-chat.ts';
import { type AgentProfile, LAB_API_KEY, type SeedContext } from './profile.ts';

/** opencode's global config directory under a HOME (`$XDG_CONFIG_HOME/opencode`, default `~/.config/opencode`). */
export function opencodeConfigDir(home: string): string {
  return path.join(home, '.config', 'opencode');
}

function seedOpencode(ctx: SeedContext): void {
  const dir = opencodeConfigDir(ctx.home);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    // Why: opencode's default lets edits and commands run; the lab asks for the prompts a user who
    // set `ask` sees (the reference's users see them in Auto mode too).
    ...(ctx.permissionPrompts ? { permission: { edit: 'ask', bash: 'ask', webfetch: 'ask' } } : {}),
    provider: {
      lab: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Lab',
        options: { baseURL: `${ctx.server.url}/v1`, apiKey: LAB_API_KEY },
        models: { [LAB_CHAT_MODEL]: { name: 'Lab model', tool_call: true } },
      },
    },
    model: `lab/${LAB_CHAT_MODEL}`,
    small_model: `lab/${LAB_CHAT_MODEL}`,
  };
  fs.writeFileSync(path.join(dir, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
}

/** opencode against the Chat Completions stand-in (an `@ai-sdk/openai-compatible` provider). */
export function opencodeProfile(): AgentProfile {
  return {
    agent: 'opencode',
    build: 'opencode',
    startServer: startChatServer,
    seedHome: seedOpencode,
    env: () => ({
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      // Why: models.dev is not reachable; the lab's provider names its one model itself.
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
    }),
    argv: () => ['opencode'],
    exitKeys: ['/exit', '\r', '\r'],
  };
}
