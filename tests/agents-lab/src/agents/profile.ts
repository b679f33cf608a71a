import type { ModelServer } from '../model/loopback-server.ts';
import type { ReplyPicker } from '../model/scenario.ts';
import type { LAB_AGENTS } from './binaries.ts';

/** What a profile needs to seed an agent's home for one lab run. */
export interface SeedContext {
  /** The agent's HOME (a fresh temp dir). */
  readonly home: string;
  /** The project directory the agent starts in. */
  readonly project: string;
  readonly server: ModelServer;
  /** Pre-accept the agent's workspace-trust question for `project`. */
  readonly trustProject: boolean;
  /** Pre-approve the API key (Claude's "Detected a custom API key" question). */
  readonly approveApiKey: boolean;
  /** Ask before tools run (Claude's default permission mode); false leaves the CLI's own default. */
  readonly permissionPrompts: boolean;
}

/** The agents the lab runs (hook-templates ids). */
export type LabAgentId = 'claude' | 'codex' | 'gemini' | 'opencode' | 'qwen' | 'droid' | 'copilot';

/** How the lab runs one agent CLI offline: its model stand-in, home, environment and argv. */
export interface AgentProfile {
  /** The agent id of `@orca/hook-templates` (the hooks the host installs for it). */
  readonly agent: LabAgentId;
  readonly build: keyof typeof LAB_AGENTS;
  startServer(picker: ReplyPicker): Promise<ModelServer>;
  /** Writes the agent's own state and config files under `home` (never outside it). */
  seedHome(ctx: SeedContext): void;
  /** Environment of the pane on top of the lab's base (PATH, HOME, TERM, LANG). */
  env(ctx: SeedContext): Record<string, string>;
  /** The command line, as a user types it. */
  argv(ctx: SeedContext): string[];
  /** Keys that quit the agent from its idle prompt. */
  readonly exitKeys: readonly string[];
}

/** The dummy API key every profile uses (never a real secret). */
export const LAB_API_KEY = 'sk-lab-0000000000-offline-stand-in-key';
