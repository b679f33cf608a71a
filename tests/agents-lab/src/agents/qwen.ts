import fs from 'node:fs';
import path from 'node:path';
import { LAB_CHAT_MODEL, startChatServer } from '../model/openai-chat.ts';
import { type AgentProfile, LAB_API_KEY, type SeedContext } from './profile.ts';

function seedQwen(ctx: SeedContext): void {
  const dir = path.join(ctx.home, '.qwen');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const settings = {
    security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: !ctx.trustProject } },
    // Why: 0.23.x reads `enableAutoUpdate` (0.24.4 `disableAutoUpdate`): `drift` touring 0.23.4 saw it
    // find 0.24.4 on the registry and run its own npm update in the middle of a tour.
    general: { disableAutoUpdate: true, disableUpdateNag: true, enableAutoUpdate: false },
    privacy: { usageStatisticsEnabled: false },
    // Why: 0.24.4 starts in Auto mode (an LLM classifier approves tools); the lab asks for the
    // confirmations a user in the default mode sees.
    ...(ctx.permissionPrompts ? { tools: { approvalMode: 'default' } } : {}),
    // Why: a background memory agent would send model requests of its own after every turn.
    memory: { enableManagedAutoMemory: false },
  };
  fs.writeFileSync(path.join(dir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
}

/** Qwen Code (a Gemini CLI fork) against the Chat Completions stand-in (`OPENAI_BASE_URL`). */
export function qwenProfile(): AgentProfile {
  return {
    agent: 'qwen',
    build: 'qwen',
    startServer: startChatServer,
    seedHome: seedQwen,
    env: (ctx) => ({
      OPENAI_BASE_URL: `${ctx.server.url}/v1`,
      OPENAI_API_KEY: LAB_API_KEY,
      OPENAI_MODEL: LAB_CHAT_MODEL,
    }),
    argv: () => ['qwen'],
    exitKeys: ['/quit', '\r'],
  };
}
