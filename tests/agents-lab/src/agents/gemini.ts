import fs from 'node:fs';
import path from 'node:path';
import { startGeminiServer } from '../model/gemini.ts';
import { type AgentProfile, LAB_API_KEY, type SeedContext } from './profile.ts';

function seedGemini(ctx: SeedContext): void {
  const dir = path.join(ctx.home, '.gemini');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: !ctx.trustProject } },
    // Why: one attempt per request — an API error should reach the screen, not ten backoffs (5 s up).
    general: { disableAutoUpdate: true, disableUpdateNag: true, maxAttempts: 1 },
    privacy: { usageStatisticsEnabled: false },
  };
  fs.writeFileSync(path.join(dir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
}

/** Gemini CLI against the Gemini API stand-in (`GOOGLE_GEMINI_BASE_URL`). */
export function geminiProfile(): AgentProfile {
  return {
    agent: 'gemini',
    build: 'gemini',
    startServer: startGeminiServer,
    seedHome: seedGemini,
    env: (ctx) => ({ GOOGLE_GEMINI_BASE_URL: ctx.server.url, GEMINI_API_KEY: LAB_API_KEY }),
    argv: () => ['gemini'],
    exitKeys: ['/quit', '\r'],
  };
}
