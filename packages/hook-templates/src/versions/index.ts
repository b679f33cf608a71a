export {
  AGENT_VERSION_COMMANDS,
  type DetectedVersion,
  detectAgentVersion,
  parseAgentVersion,
  type VersionProbe,
} from './agent-version.ts';
export { nodeVersionProbe } from './detect.ts';
