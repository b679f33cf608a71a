import { spawn } from 'node:child_process';
import { scrubLlmCredentials } from '@orca/command-hooks';
import { request } from 'undici';
import { NOTIFY_COMMAND_TIMEOUT_MS, NOTIFY_HTTP_TIMEOUT_MS } from '../constants.ts';
import type { NotifySink } from './notify-config.ts';
import type { NotifyEvent } from './notify-event.ts';

/** The outcome of one delivery attempt. */
export type SinkOutcome =
  | { outcome: 'delivered'; status?: number }
  | { outcome: 'retry'; status?: number; error: string }
  /** The sink cannot deliver on this machine or now (no session bus, no board open): not retried. */
  | { outcome: 'skipped'; error: string };

/** What a sink needs from the host. */
export interface SinkContext {
  /** Hands the event to every open board (`notify.watch`); how many got it. */
  toBoards(event: NotifyEvent): number;
  env: NodeJS.ProcessEnv;
}

async function webhook(sink: Extract<NotifySink, { type: 'webhook' }>, event: NotifyEvent): Promise<SinkOutcome> {
  const ntfy = sink.format === 'ntfy';
  const res = await request(sink.url, {
    method: 'POST',
    headers: {
      ...(sink.headers ?? {}),
      'x-orca-event-id': event.id,
      'x-orca-event-kind': event.kind,
      ...(ntfy
        ? { 'content-type': 'text/plain; charset=utf-8', title: event.title, tags: `orca,${event.kind}` }
        : { 'content-type': 'application/json' }),
    },
    body: ntfy ? event.text : JSON.stringify(event),
    headersTimeout: NOTIFY_HTTP_TIMEOUT_MS,
    bodyTimeout: NOTIFY_HTTP_TIMEOUT_MS,
  });
  await res.body.dump();
  if (res.statusCode >= 200 && res.statusCode < 300) return { outcome: 'delivered', status: res.statusCode };
  return { outcome: 'retry', status: res.statusCode, error: `HTTP ${res.statusCode}` };
}

function run(
  file: string,
  args: string[],
  stdin: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 2_000) stderr += d.toString();
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stderr: error.message, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, timedOut });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

/**
 * Delivers `event` to `sink` once. A webhook is delivered on a 2xx; a command on exit 0 (its
 * stdin is the event as JSON, `ORCA_NOTIFY_*` in its environment, LLM credentials scrubbed); the
 * desktop through `notify-send` where a session bus exists; the board to every open page.
 */
export async function deliverToSink(sink: NotifySink, event: NotifyEvent, ctx: SinkContext): Promise<SinkOutcome> {
  try {
    switch (sink.type) {
      case 'webhook':
        return await webhook(sink, event);
      case 'web': {
        const boards = ctx.toBoards(event);
        return boards > 0
          ? { outcome: 'delivered', status: boards }
          : { outcome: 'skipped', error: 'no board open (orca start --web, then open it)' };
      }
      case 'desktop': {
        if (!ctx.env.DBUS_SESSION_BUS_ADDRESS)
          return { outcome: 'skipped', error: 'no session bus: desktop notifications need a graphical login session' };
        const r = await run(
          'notify-send',
          ['--app-name=orca', event.title, event.text],
          '',
          ctx.env,
          NOTIFY_COMMAND_TIMEOUT_MS,
        );
        if (r.code === 0) return { outcome: 'delivered' };
        if (r.code === null && !r.timedOut) return { outcome: 'skipped', error: `notify-send: ${r.stderr}` };
        return { outcome: 'retry', error: `notify-send exited ${r.code}: ${r.stderr.trim()}` };
      }
      case 'command': {
        const env = {
          ...scrubLlmCredentials(ctx.env as Record<string, string>),
          ORCA_NOTIFY_KIND: event.kind,
          ORCA_NOTIFY_HANDLE: event.handle ?? '',
          ORCA_NOTIFY_TEXT: event.text,
        };
        const r = await run(
          '/bin/sh',
          ['-c', sink.command],
          JSON.stringify(event),
          env,
          (sink.timeoutSeconds ?? NOTIFY_COMMAND_TIMEOUT_MS / 1000) * 1000,
        );
        if (r.code === 0) return { outcome: 'delivered' };
        return {
          outcome: 'retry',
          error: r.timedOut ? 'timed out' : `exited ${r.code}${r.stderr ? `: ${r.stderr.trim().slice(0, 200)}` : ''}`,
        };
      }
    }
  } catch (error) {
    return { outcome: 'retry', error: (error as Error).message };
  }
}
