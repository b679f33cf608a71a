import fs from 'node:fs';
import path from 'node:path';
import { LAB_CHAT_MODEL, startChatServer } from '../model/openai-chat.ts';
import { type AgentProfile, LAB_API_KEY, type SeedContext } from './profile.ts';

/** The model id Droid gives the lab's custom model (`custom:<model>`). */
export const DROID_LAB_MODEL = `custom:${LAB_CHAT_MODEL}`;

function seedDroid(ctx: SeedContext): void {
  const dir = path.join(ctx.home, '.factory');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Why: the host's hook installer merges its `hooks` into this file and keeps every other key.
  const settings = {
    customModels: [
      {
        model: LAB_CHAT_MODEL,
        displayName: 'Lab model',
        baseUrl: `${ctx.server.url}/v1`,
        apiKey: LAB_API_KEY,
        provider: 'generic-chat-completion-api',
        maxOutputTokens: 4096,
        noImageSupport: true,
      },
    ],
    sessionDefaultSettings: {
      model: DROID_LAB_MODEL,
      reasoningEffort: 'none',
      // Why: `Auto (Off) · all actions require approval`: the lab wants every tool's approval dialog.
      ...(ctx.permissionPrompts ? { autonomyLevel: 'off' } : {}),
    },
    cloudSessionSync: false,
    disableAutoUpdate: true,
    // Why: where 0.225.2 itself records "Trust this folder" (top level, keyed by the folder).
    ...(ctx.trustProject ? { trustedFolders: { [ctx.project]: { trustedAt: new Date().toISOString() } } } : {}),
  };
  fs.writeFileSync(path.join(dir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
}

/** Factory's Droid against the Chat Completions stand-in (a `generic-chat-completion-api` custom model). */
export function droidProfile(): AgentProfile {
  return {
    agent: 'droid',
    build: 'droid',
    startServer: startChatServer,
    seedHome: seedDroid,
    env: () => ({
      // Why: without it the TUI asks for a Factory login before anything else; airgap mode runs on
      // custom models alone.
      FACTORY_AIRGAP_ENABLED: 'true',
      FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false',
    }),
    argv: () => ['droid'],
    exitKeys: ['/quit', '\r'],
  };
}
