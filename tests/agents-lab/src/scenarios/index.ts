import type { LAB_AGENTS } from '../agents/binaries.ts';
import { claudeProfile } from '../agents/claude.ts';
import { codexProfile } from '../agents/codex.ts';
import { copilotProfile } from '../agents/copilot.ts';
import { droidProfile } from '../agents/droid.ts';
import { geminiProfile } from '../agents/gemini.ts';
import { opencodeProfile } from '../agents/opencode.ts';
import type { AgentProfile } from '../agents/profile.ts';
import { qwenProfile } from '../agents/qwen.ts';
import type { AgentScreens } from './agent-screens.ts';
import { claudeScreens } from './claude-screens.ts';
import { codexScreens } from './codex-screens.ts';
import { copilotScreens } from './copilot-screens.ts';
import { droidScreens } from './droid-screens.ts';
import { geminiScreens } from './gemini-screens.ts';
import { opencodeScreens } from './opencode-screens.ts';
import { qwenScreens } from './qwen-screens.ts';

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
    case 'opencode':
      return opencodeProfile();
    case 'qwen':
      return qwenProfile();
    case 'copilot':
      return copilotProfile();
    case 'droid':
      return droidProfile();
    default:
      throw new Error(
        `unknown lab build ${build}; known: claude, claude-2.1.197, codex, gemini, opencode, qwen, droid, copilot`,
      );
  }
}

const SCREENS: Readonly<Record<AgentProfile['agent'], AgentScreens>> = {
  claude: claudeScreens,
  codex: codexScreens,
  gemini: geminiScreens,
  opencode: opencodeScreens,
  qwen: qwenScreens,
  copilot: copilotScreens,
  droid: droidScreens,
};

/** The screens of an agent's tour. */
export function screensFor(agent: AgentProfile['agent']): AgentScreens {
  return SCREENS[agent];
}
