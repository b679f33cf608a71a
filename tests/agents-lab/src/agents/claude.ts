import fs from 'node:fs';
import path from 'node:path';
import { startAnthropicServer } from '../model/anthropic.ts';
import type { LAB_AGENTS } from './binaries.ts';
import { type AgentProfile, LAB_API_KEY, type SeedContext } from './profile.ts';

/** Claude Code keeps the last 20 characters of an approved custom API key. */
const APPROVED_KEY_SUFFIX_CHARS = 20;

function seedClaude(ctx: SeedContext): void {
  const state: Record<string, unknown> = {
    hasCompletedOnboarding: true,
    // Why: offline, these notices and tips would only add screens no scenario is about.
    hasSeenTasksHint: true,
    bypassPermissionsModeAccepted: false,
  };
  if (ctx.approveApiKey) {
    state.customApiKeyResponses = { approved: [LAB_API_KEY.slice(-APPROVED_KEY_SUFFIX_CHARS)], rejected: [] };
  }
  if (ctx.trustProject) {
    state.projects = { [ctx.project]: { hasTrustDialogAccepted: true, allowedTools: [] } };
  }
  fs.writeFileSync(path.join(ctx.home, '.claude.json'), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  const settingsDir = path.join(ctx.home, '.claude');
  fs.mkdirSync(settingsDir, { recursive: true, mode: 0o700 });
  // Why: newer builds default to auto mode, which answers permission prompts itself; the lab asks
  // for the prompts a user in the default mode sees.
  const settings = ctx.permissionPrompts ? { permissions: { defaultMode: 'default' } } : {};
  fs.writeFileSync(path.join(settingsDir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
}

/** Claude Code against the Anthropic Messages API stand-in (`ANTHROPIC_BASE_URL`). */
export function claudeProfile(build: keyof typeof LAB_AGENTS = 'claude'): AgentProfile {
  return {
    agent: 'claude',
    build,
    startServer: startAnthropicServer,
    seedHome: seedClaude,
    env: (ctx) => ({
      ANTHROPIC_BASE_URL: ctx.server.url,
      ANTHROPIC_API_KEY: LAB_API_KEY,
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      // Why: an API error should reach the screen in one retry, not after ten backoffs.
      CLAUDE_CODE_MAX_RETRIES: '1',
    }),
    argv: () => ['claude'],
    exitKeys: ['/exit', '\r'],
  };
}
