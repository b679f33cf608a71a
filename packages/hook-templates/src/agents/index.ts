export type {
  AgentDescriptor,
  CapturePolicy,
  ConfigShape,
  ExtraField,
  LauncherEnvRule,
  ProtocolOutput,
  SkipRule,
} from './descriptor.ts';
export {
  AGENT_LIST,
  AGENTS,
  CURSOR_ALLOW_RESPONSE,
  CURSOR_PERMISSION_EVENTS,
  getAgent,
  launcherEnvFor,
  protocolLineFor,
} from './registry.ts';
export { RESUME_SPECS, type ResumePlan, type ResumeSpec, resumePlan } from './resume.ts';
export { AGENT_IDS, type AgentId, HOOK_SOURCES, type HookSource, isAgentId } from './sources.ts';
