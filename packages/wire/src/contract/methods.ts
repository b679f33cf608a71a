import { z } from 'zod';
import type { StatusGetResult } from '../compat/status.ts';
import { type BrowserPart, contractMethod } from './define.ts';
import { RUNTIME_METHOD_LIMITS as L } from './limits.ts';
import type {
  DispatchReceipt,
  ExplainedTransitionView,
  GcReportView,
  GuestInfoView,
  NotifyAttemptView,
  NotifyDeliveryView,
  NotifyEventView,
  PaneView,
  QueueItemView,
  ResumeCandidateView,
  ResumeReportView,
  VerdictChange,
  WaitResult,
  WebSessionView,
} from './views.ts';

const handle = z.string().min(1).max(L.handleMaxChars);
const queueId = z.number().int().positive();
const timeoutMs = z.number().int().positive().max(L.waitTimeoutMaxMs);

/**
 * Every runtime method: its name, params schema, result and event types, and whether a paired
 * browser may call it. The host serves from this table (`implement`), the CLI and the board call
 * through it (`TypedCaller`); `browser: false` methods are refused on the web socket.
 */
export const RUNTIME_CONTRACT = {
  'status.get': contractMethod<StatusGetResult>()({ params: null, streaming: false, browser: true }),

  'terminal.create': contractMethod<PaneView>()({
    params: z.object({
      argv: z.array(z.string()).min(1),
      cwd: z.string().min(1).optional(),
      name: z.string().max(L.handleMaxChars).optional(),
      env: z.record(z.string(), z.string()).optional(),
      guest: z.string().min(1).optional(),
    }),
    streaming: false,
    browser: true,
  }),
  'terminal.list': contractMethod<{ panes: PaneView[] }>()({ params: null, streaming: false, browser: true }),
  'terminal.show': contractMethod<PaneView>()({ params: z.object({ handle }), streaming: false, browser: true }),
  'terminal.remove': contractMethod<{ removed: string }>()({
    params: z.object({ handle }),
    streaming: false,
    browser: true,
  }),
  'terminal.send': contractMethod<{ bytes: number }>()({
    params: z.object({ handle, text: z.string() }),
    streaming: false,
    browser: true,
  }),
  'terminal.dispatch': contractMethod<DispatchReceipt>()({
    // Why: an empty or oversized prompt gets its own refusal code (prompt_empty, prompt_too_large), not a schema error.
    params: z.object({ handle, inject: z.string(), timeoutMs: timeoutMs.optional() }),
    streaming: false,
    browser: true,
  }),
  'terminal.wait': contractMethod<WaitResult>()({
    params: z.object({ handle, for: z.enum(['tui-idle', 'exit']), timeoutMs: timeoutMs.optional() }),
    streaming: true,
    browser: true,
  }),
  /** Binds the connection's binary side to the terminal stream; events are its control messages. */
  'terminal.multiplex': contractMethod<null, Record<string, unknown>>()({
    params: z.object({ clipboard: z.boolean().optional() }),
    streaming: true,
    browser: true,
  }),

  'queue.add': contractMethod<QueueItemView>()({
    params: z.object({
      handle,
      prompt: z.string(),
      expiresInMs: z.number().int().positive().optional(),
      source: z.enum(['cli', 'web', 'rpc']).optional(),
    }),
    streaming: false,
    browser: true,
  }),
  'queue.list': contractMethod<{ items: QueueItemView[] }>()({
    params: z.object({ handle: handle.optional() }).optional(),
    streaming: false,
    browser: true,
  }),
  'queue.get': contractMethod<QueueItemView>()({ params: z.object({ id: queueId }), streaming: false, browser: true }),
  'queue.remove': contractMethod<QueueItemView>()({
    params: z.object({ id: queueId }),
    streaming: false,
    browser: true,
  }),
  'queue.move': contractMethod<{ items: QueueItemView[] }>()({
    params: z.object({ id: queueId, position: z.number().int().positive() }),
    streaming: false,
    browser: true,
  }),
  'queue.wait': contractMethod<QueueItemView>()({
    params: z.object({ id: queueId, timeoutMs: timeoutMs.optional() }),
    streaming: true,
    browser: true,
  }),
  'queue.watch': contractMethod<null, QueueItemView>()({ params: null, streaming: true, browser: true }),

  'status.watch': contractMethod<null, VerdictChange>()({ params: null, streaming: true, browser: true }),
  'status.explain': contractMethod<{ handle: string; transitions: ExplainedTransitionView[] }>()({
    params: z.object({
      handle,
      limit: z.number().int().positive().max(L.transitionsKeptPerPane).optional(),
      replay: z.boolean().optional(),
    }),
    streaming: false,
    browser: true,
  }),

  // Why: a test notification reaches the owner's webhooks and commands; a browser only reads the board's own.
  'notify.test': contractMethod<{ results: NotifyDeliveryView[] }>()({
    params: z.object({ sink: z.string().min(1).max(40).optional() }).nullish(),
    streaming: false,
    browser: false,
  }),
  'notify.log': contractMethod<{ attempts: NotifyAttemptView[] }>()({
    params: z.object({ limit: z.number().int().positive().max(L.notifyLogMax).optional() }).nullish(),
    streaming: false,
    browser: false,
  }),
  'notify.watch': contractMethod<null, NotifyEventView>()({ params: null, streaming: true, browser: true }),

  'resume.list': contractMethod<{ panes: ResumeCandidateView[] }>()({ params: null, streaming: false, browser: true }),
  'resume.run': contractMethod<ResumeReportView>()({
    params: z.object({ handles: z.array(handle).max(L.resumeHandlesMax).optional() }).optional(),
    streaming: false,
    browser: true,
  }),

  // Why: a guest runs ssh with caller-given arguments, and gc and shutdown act on the whole host: the owner's socket only.
  'guest.add': contractMethod<GuestInfoView>()({
    params: z.object({
      kind: z.enum(['netns', 'ssh']),
      name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
      target: z.string().min(1).optional(),
      noHooks: z.boolean().optional(),
      agents: z.array(z.string()).optional(),
      sshArgs: z.array(z.string()).optional(),
    }),
    streaming: false,
    browser: false,
  }),
  'guest.list': contractMethod<{ guests: GuestInfoView[] }>()({ params: null, streaming: false, browser: false }),
  'guest.remove': contractMethod<{ removed: boolean }>()({
    params: z.object({ name: z.string().min(1) }),
    streaming: false,
    browser: false,
  }),
  'store.gc': contractMethod<GcReportView>()({
    params: z.object({ full: z.boolean().optional() }).optional(),
    streaming: false,
    browser: false,
  }),
  'host.shutdown': contractMethod<{ stopping: true; pid: number; panes: 'keep' | 'end' }>()({
    params: z.object({ panes: z.enum(['keep', 'end']).optional() }).optional(),
    streaming: false,
    browser: false,
  }),

  /** The web socket's own session: its id, and its token once, on the connection a pairing code opened. */
  'web.session': contractMethod<{ sessionId: string | null; token?: string }>()({
    params: null,
    streaming: false,
    browser: true,
  }),
  'web.sessions': contractMethod<{ serving: boolean; sessions: WebSessionView[] }>()({
    params: null,
    streaming: false,
    browser: false,
  }),
  'web.revoke': contractMethod<{ revoked: boolean }>()({
    params: z.object({ id: z.string().min(1).max(100) }),
    streaming: false,
    browser: false,
  }),
  'web.pair': contractMethod<{ url: string; expiresAt: number }>()({
    params: z
      .object({ expiresInMs: z.number().int().min(L.webPairingTtlMinMs).max(L.webPairingTtlMaxMs).optional() })
      .nullish(),
    streaming: false,
    browser: false,
  }),
} as const;

/** The runtime contract's type. */
export type RuntimeContract = typeof RUNTIME_CONTRACT;
/** The methods a paired browser may call: what the board's caller is typed with. */
export type BrowserContract = BrowserPart<RuntimeContract>;
/** A runtime method's name. */
export type RuntimeMethodName = keyof RuntimeContract & string;

/** The names of the methods a paired browser may call. */
export const BROWSER_METHODS: ReadonlySet<string> = new Set(
  Object.entries(RUNTIME_CONTRACT)
    .filter(([, m]) => m.browser)
    .map(([name]) => name),
);
