import { submittedPromptOf } from '@orca/agent-status/submit';
import { acceptRelayed, type HookEvent, type RelayedEvent } from '@orca/relay/listener';
import type { IngestGuards } from '../agent-hooks/ingest-guards.ts';
import { SESSION_ID_MAX_CHARS } from '../constants.ts';
import type { HostLogger } from '../runtime/logger.ts';
import type { Store } from '../store/store.ts';
import type { LivePane } from './live-pane.ts';

/**
 * The host's single trust boundary for hook events: guest relays and spool files hand raw JSON
 * plus the connection id here, and only here is `acceptRelayed` called. The local listener's
 * events were validated once already, by the same rules in this process (`@orca/relay`'s
 * listener), and come in through {@link HookIngest.ingestLocal} without a second validation.
 */
export interface HookIngest {
  /** A live event from a guest link: accepted → stored and fed to its pane, else null. */
  ingest(raw: unknown, connectionId: string): RelayedEvent | null;
  /**
   * An event the host's own listener accepted (validated there): stamped `local` and the host's
   * arrival time, stored and fed to its pane. Null once the store closed.
   */
  ingestLocal(event: HookEvent): RelayedEvent | null;
  /** A spooled line: like {@link ingest} but keeping the time it was written (never in the future). */
  ingestSpooled(line: unknown, connectionId: string): boolean;
}

/** The vendor event name of an accepted envelope (out of band, else the payload's own field). */
function eventNameOf(event: RelayedEvent): string | undefined {
  if (event.hookEventName) return event.hookEventName;
  const p = event.payload as Record<string, unknown>;
  const name = p.hook_event_name ?? p.hookEventName;
  return typeof name === 'string' ? name : undefined;
}

/** The agent's session id a hook payload carries (`session_id`, `sessionId`), or null. */
function sessionIdOf(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const p = payload as Record<string, unknown>;
  const id = p.session_id ?? p.sessionId;
  return typeof id === 'string' && id.length > 0 && id.length <= SESSION_ID_MAX_CHARS ? id : null;
}

/** The `receivedAt` a spooled line carries, clamped to [0, now]; `now` when it has none. */
function spooledAt(line: unknown, now: number): number {
  const at = (line as Record<string, unknown>).receivedAt;
  return typeof at === 'number' && Number.isFinite(at) ? Math.min(Math.max(0, at), now) : now;
}

/** Builds the ingest over the store and the live panes; `closed()` true (the store closed) drops everything. */
export function createHookIngest(o: {
  store: Store;
  guards: IngestGuards;
  log: HostLogger;
  now: () => number;
  paneByKey: (paneKey: string) => LivePane | undefined;
  closed: () => boolean;
}): HookIngest {
  const route = (accepted: RelayedEvent): void => {
    const pane = o.paneByKey(accepted.paneKey);
    // Why: rows are stored only for panes this host knows (live, or exited and still listed).
    if (!pane && !o.store.hasPaneKey(accepted.paneKey)) {
      o.guards.unknownPane(accepted);
      return;
    }
    o.guards.checkEndpoint(accepted);
    const running = pane !== undefined && pane.exit === null;
    // Why: extracted once; the stored row names the event even when only the payload did.
    const eventName = eventNameOf(accepted);
    const row = running ? pane.status.addHookEvent(accepted, eventName) : null;
    if (running) {
      // Why: the session id is what a resume after the keeper is gone needs (issue 26).
      // Why: only the pane's own agent names its session (a nested `codex exec` inherits the pane key).
      const agent = pane.status.agent();
      const session = agent === null || agent === accepted.source ? sessionIdOf(accepted.payload) : null;
      if (session !== null && session !== pane.sessionId) {
        pane.sessionId = session;
        o.store.setPaneSession(pane.record.handle, session);
      }
      // Why: a dispatch is proven by the prompt hook carrying its own text (issue 25).
      const prompt = submittedPromptOf(accepted.source, eventName, accepted.payload);
      if (prompt !== undefined) pane.promptHooks.record(accepted.receivedAt, prompt);
    }
    o.store.insertHookRow({
      paneKey: accepted.paneKey,
      connectionId: accepted.connectionId,
      source: accepted.source,
      hookEventName: eventName ?? null,
      receivedAt: accepted.receivedAt,
      envelope: { ...accepted },
      row: row ? { ...row } : null,
    });
  };
  const admit = (raw: unknown, connectionId: string, receivedAt?: (now: number) => number): RelayedEvent | null => {
    if (o.closed()) return null;
    const accepted = acceptRelayed(raw, connectionId, { now: o.now });
    if ('drop' in accepted) {
      o.log.debug({ connectionId, reason: accepted.drop }, 'hook event dropped at the trust boundary');
      return null;
    }
    const event = receivedAt ? { ...accepted, receivedAt: receivedAt(o.now()) } : accepted;
    route(event);
    return event;
  };
  return {
    ingest: (raw, connectionId) => admit(raw, connectionId),
    ingestLocal(event) {
      if (o.closed()) return null;
      // Why: acceptRelayed gives an event without sentAt the host's own time; the listener's is kept alike.
      const local: RelayedEvent = { ...event, receivedAt: o.now(), connectionId: 'local' };
      route(local);
      return local;
    },
    ingestSpooled(line, connectionId) {
      if (typeof line !== 'object' || line === null) return false;
      // Why: a spooled event happened when it was written, not when we read it.
      return admit(line, connectionId, (now) => spooledAt(line, now)) !== null;
    },
  };
}
