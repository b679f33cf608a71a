import type { LAB_AGENTS } from '../agents/binaries.ts';
import { claudeProfile } from '../agents/claude.ts';
import { codexProfile } from '../agents/codex.ts';
import { geminiProfile } from '../agents/gemini.ts';
import type { AgentProfile } from '../agents/profile.ts';
import { claudeScreens } from './claude-screens.ts';
import { codexScreens } from './codex-screens.ts';
import { geminiScreens } from './gemini-screens.ts';
import type { AgentScreens } from './tour.ts';

/** The profile of a lab build (`claude`, `claude-2.1.197`, `codex`, `gemini`). */
export function profileFor(build: string): AgentProfile {
  switch (build) {
    case 'claude':
    case 'claude-2.1.197':
      return claudeProfile(build as keyof typeof LAB_AGENTS);
    case 'codex':
      return codexProfile();
    case 'gemini':
      return geminiProfile();
    default:
      throw new Error(`unknown lab build ${build}; known: claude, claude-2.1.197, codex, gemini`);
  }
}

/** The screens of an agent's tour. */
export function screensFor(agent: AgentProfile['agent']): AgentScreens {
  return agent === 'claude' ? claudeScreens : agent === 'codex' ? codexScreens : geminiScreens;
}
