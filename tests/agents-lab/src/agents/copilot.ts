import fs from 'node:fs';
import path from 'node:path';
import { LAB_CHAT_MODEL, startChatServer } from '../model/openai-chat.ts';
import { type AgentProfile, LAB_API_KEY, type SeedContext } from './profile.ts';

/** Copilot CLI's config directory under a HOME (`$COPILOT_HOME`, default `~/.copilot`). */
export function copilotHome(home: string): string {
  return path.join(home, '.copilot');
}

function seedCopilot(ctx: SeedContext): void {
  const dir = copilotHome(ctx.home);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Why: 1.0.102 asks "Do you trust the files in this folder?" at startup unless the folder is listed
  // here (what its "Yes, and remember this folder" answer records); the host merges nothing into it.
  const config = {
    ...(ctx.trustProject ? { trusted_folders: [ctx.project] } : {}),
  };
  fs.writeFileSync(path.join(dir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
}

/** GitHub Copilot CLI against the Chat Completions stand-in (BYOK: `COPILOT_PROVIDER_BASE_URL`). */
export function copilotProfile(): AgentProfile {
  return {
    agent: 'copilot',
    build: 'copilot',
    startServer: startChatServer,
    seedHome: seedCopilot,
    env: (ctx) => ({
      // Why: BYOK with no GitHub login, telemetry or auto-update; it also disables the web tools, so
      // the model is offered no web_fetch and the tour has no fetch approval.
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: `${ctx.server.url}/v1`,
      COPILOT_PROVIDER_TYPE: 'openai',
      COPILOT_PROVIDER_WIRE_API: 'completions',
      COPILOT_PROVIDER_API_KEY: LAB_API_KEY,
      COPILOT_MODEL: LAB_CHAT_MODEL,
      COPILOT_AUTO_UPDATE: 'false',
    }),
    argv: () => ['copilot'],
    exitKeys: ['/exit', '\r'],
  };
}
