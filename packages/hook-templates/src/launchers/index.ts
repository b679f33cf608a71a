export { defaultLauncherForm, type LauncherRequest, type LauncherResult, launcherCommand } from './for-agent.ts';
export { isManagedCommand, MANAGED_STEMS } from './managed.ts';
export {
  envPrefix,
  fallbackPrint,
  POSIX_LAUNCHER_DRAIN,
  posixGuarded,
  posixReadable,
  quoteLauncherPath,
  type RuntimeHomeOptions,
  runtimeHome,
} from './posix.ts';
export {
  DEFAULT_SYSTEM_ROOT,
  decodeEncodedCommand,
  encodedPowerShell,
  encodedPowerShellFor,
  encodePowerShell,
  powershellExe,
} from './powershell.ts';
export { assertSafePath, LAUNCHER_FORMS, type LauncherForm, type LauncherSpec, WINDOWS_GUARD_ENV } from './spec.ts';
export {
  ANTIGRAVITY_WRAPPERS,
  antigravityWindowsWrapper,
  CMD_FAST_PATH_RE,
  claudeWindowsWrapper,
  cmdFastPath,
  WINDOWS_DIRECT_RE,
  windowsDirect,
} from './windows.ts';
