import type { AgentDescriptor } from '../agents/descriptor.ts';
import { launcherEnvFor, protocolLineFor } from '../agents/registry.ts';
import { CONFIG_FILE_MODE, POSIX_SCRIPT_MODE } from '../constants.ts';
import { emitScript } from '../emit/script.ts';
import { claudeWindowsWrapper, eventWindowsWrapper } from '../launchers/windows.ts';
import { planFor } from '../plan/plan-for.ts';
import { hooksDir, joinFor } from './paths.ts';

/** A managed script file to write. */
export interface ScriptFile {
  path: string;
  content: string;
  mode: number;
}

/** Every managed script (and Windows wrapper) of an agent on `os`. */
export function scriptFiles(d: AgentDescriptor, os: 'posix' | 'windows', home: string): ScriptFile[] {
  const dir = hooksDir(os, home);
  if (os === 'posix') {
    return [
      {
        path: joinFor(os, dir, `${d.scriptStem}-hook.sh`),
        content: emitScript(planFor(d.id, { os: 'posix', dialect: 'sh' })),
        mode: POSIX_SCRIPT_MODE,
      },
    ];
  }
  const script = emitScript(planFor(d.id, { os: 'windows', dialect: d.windowsDialect }));
  const file = (name: string, content: string): ScriptFile => ({
    path: joinFor(os, dir, name),
    content,
    mode: CONFIG_FILE_MODE,
  });
  if (d.windowsDialect === 'pwsh') return [file(`${d.scriptStem}-hook.ps1`, script)];
  if (d.windowsLauncher === 'claude') {
    return [
      file(`${d.scriptStem}-hook-impl.cmd`, script),
      file(`${d.scriptStem}-hook.cmd`, claudeWindowsWrapper(d.scriptStem)),
    ];
  }
  if (d.windowsEventWrappers !== undefined) {
    return [
      file(`${d.scriptStem}-hook.cmd`, script),
      ...Object.entries(d.windowsEventWrappers).map(([event, stem]) =>
        file(`${stem}.cmd`, eventWindowsWrapper(d.scriptStem, launcherEnvFor(d, event), protocolLineFor(d, event))),
      ),
    ];
  }
  return [file(`${d.scriptStem}-hook.cmd`, script)];
}

/** The file a config handler of `event` starts on `os` (Windows wrappers where the agent has them). */
export function launchedScriptPath(d: AgentDescriptor, os: 'posix' | 'windows', home: string, event: string): string {
  const dir = hooksDir(os, home);
  if (os === 'posix') return joinFor(os, dir, `${d.scriptStem}-hook.sh`);
  if (d.windowsDialect === 'pwsh') return joinFor(os, dir, `${d.scriptStem}-hook.ps1`);
  const stem = d.windowsEventWrappers?.[event];
  if (stem !== undefined) return joinFor(os, dir, `${stem}.cmd`);
  return joinFor(os, dir, `${d.scriptStem}-hook.cmd`);
}
