import { randomUUID } from 'node:crypto';
import { PERMISSION_DIALOG_DRAW_GRACE_MS } from '@orca/agent-status';
import { NOTIFY_DIALOG_CONFIRM_MARGIN_MS } from '../constants.ts';
import type { LivePane } from '../panes/live-pane.ts';
import type { HostLogger } from '../runtime/logger.ts';
import type { NotifyConfig, NotifyRule } from './notify-config.ts';
import type { DeliveryResult, NotifyDelivery } from './notify-delivery.ts';
import { describe, type NotifyEvent, type NotifyKind } from './notify-event.ts';
import { isWaiting, type Transition } from './transition-journal.ts';

export { isWaiting };

interface PaneState {
  /** The wait this pane is in (its start), or null. */
  waitSince: number | null;
  waitReason: string | null;
  /** The `waiting` event sent for this wait, and the sinks it went to. */
  alerted: { id: string; sinks: Set<string> } | null;
  confirmTimer: ReturnType<typeof setTimeout> | null;
  escalationTimers: ReturnType<typeof setTimeout>[];
  workingSince: number | null;
}

/** Decides which transitions notify whom, once per wait, and sends `resolved` when the wait ends. */
export interface NotifyEngine {
  onTransition(t: Transition, pane: LivePane): void;
  /** Sends a `test` event to every sink (or `only`), and how each ended. */
  test(only?: string): Promise<DeliveryResult[]>;
  stop(): void;
}

/**
 * The notification rules at work. A pane that starts waiting alerts the `waiting` rules' sinks
 * only when a human is really needed: an agent the hooks named must also show the prompt on its
 * screen — at once, or once its dialog had time to draw; a hook's claim alone (a tool the agent
 * auto-allowed) never alerts. One alert per wait (pane + wait start); when the wait ends, the
 * same sinks get `resolved`; still waiting after a rule's `escalate.afterMinutes`, its escalation
 * sinks get `escalated`. `done` follows a turn at least `minTurnSeconds` long; `error` an exit
 * with a non-zero code or a signal.
 */
export function createNotifyEngine(o: {
  config: () => NotifyConfig;
  delivery: NotifyDelivery;
  log: HostLogger;
  now: () => number;
  /** The pane's verdict explained again now (the dialog check after its grace). */
  explainAgain: (pane: LivePane) => Promise<{ screenShowsPrompt: boolean; waiting: boolean }>;
}): NotifyEngine {
  const states = new Map<string, PaneState>();
  let stopped = false;
  const stateOf = (handle: string): PaneState => {
    let s = states.get(handle);
    if (!s) {
      s = {
        waitSince: null,
        waitReason: null,
        alerted: null,
        confirmTimer: null,
        escalationTimers: [],
        workingSince: null,
      };
      states.set(handle, s);
    }
    return s;
  };
  const rulesFor = (kind: NotifyRule['on']): NotifyRule[] => o.config().rules.filter((r) => r.on === kind);
  const eventOf = (
    kind: NotifyKind,
    pane: LivePane,
    reason: string | null,
    extra: { since?: number; resolves?: string; turnSeconds?: number; exit?: string } = {},
  ): NotifyEvent => {
    const who = { handle: pane.record.handle, name: pane.record.name, agent: pane.status.agent() };
    return {
      id: randomUUID(),
      kind,
      at: o.now(),
      ...who,
      reason,
      ...(extra.since !== undefined ? { since: extra.since } : {}),
      ...(extra.resolves ? { resolves: extra.resolves } : {}),
      ...describe(kind, who, reason, extra),
    };
  };
  const sendTo = (names: Iterable<string>, event: NotifyEvent): void => {
    const sinks = o.config().sinks;
    for (const name of names) {
      const sink = sinks[name];
      if (!sink) continue;
      void o.delivery.send(name, sink, event).catch((error: unknown) => o.log.warn({ err: error }, 'notify failed'));
    }
  };
  const clearTimers = (s: PaneState): void => {
    if (s.confirmTimer) clearTimeout(s.confirmTimer);
    s.confirmTimer = null;
    for (const t of s.escalationTimers) clearTimeout(t);
    s.escalationTimers = [];
  };
  const alert = (pane: LivePane, s: PaneState): void => {
    if (s.alerted || s.waitSince === null || stopped) return;
    const rules = rulesFor('waiting');
    if (rules.length === 0) return;
    const since = s.waitSince;
    const event = eventOf('waiting', pane, s.waitReason, { since });
    const sinks = new Set(rules.flatMap((r) => r.sinks));
    s.alerted = { id: event.id, sinks };
    sendTo(sinks, event);
    for (const rule of rules) {
      if (!rule.escalate) continue;
      const escalate = rule.escalate;
      const timer = setTimeout(() => {
        if (s.waitSince !== since || stopped) return;
        for (const name of escalate.sinks) s.alerted?.sinks.add(name);
        sendTo(escalate.sinks, eventOf('escalated', pane, s.waitReason, { since, resolves: event.id }));
      }, escalate.afterMinutes * 60_000);
      timer.unref?.();
      s.escalationTimers.push(timer);
    }
  };
  return {
    onTransition(t, pane) {
      if (stopped) return;
      const s = stateOf(t.handle);
      const waiting = isWaiting(t.verdict);
      if (t.to === 'working' && s.workingSince === null) s.workingSince = t.at;
      if (waiting) {
        if (s.waitSince === null) {
          s.waitSince = t.at;
          s.waitReason = t.verdict.agentWait?.reason ?? (t.verdict.status === 'permission' ? 'permission' : null);
        }
        // Why: a known agent's hook can claim a wait for a tool it then runs unasked; only a prompt
        // on its screen (now, or once the dialog had time to draw) proves a human is needed.
        if (t.agent === null || t.explanation.screenShowsPrompt) alert(pane, s);
        else if (!s.alerted && s.confirmTimer === null) {
          const since = s.waitSince;
          s.confirmTimer = setTimeout(() => {
            s.confirmTimer = null;
            if (s.waitSince !== since || stopped) return;
            void o
              .explainAgain(pane)
              .then((again) => {
                if (s.waitSince === since && again.waiting && again.screenShowsPrompt) alert(pane, s);
              })
              .catch((error: unknown) => o.log.warn({ err: error }, 'dialog check failed'));
          }, PERMISSION_DIALOG_DRAW_GRACE_MS + NOTIFY_DIALOG_CONFIRM_MARGIN_MS);
          s.confirmTimer.unref?.();
        }
      } else if (s.waitSince !== null) {
        const alerted = s.alerted;
        clearTimers(s);
        s.waitSince = null;
        if (alerted) sendTo(alerted.sinks, eventOf('resolved', pane, s.waitReason, { resolves: alerted.id }));
        s.alerted = null;
        s.waitReason = null;
      }
      if (t.to === 'idle' && t.from !== null && s.workingSince !== null) {
        const turnMs = t.at - s.workingSince;
        s.workingSince = null;
        for (const rule of rulesFor('done'))
          if (turnMs >= (rule.minTurnSeconds ?? 0) * 1000)
            sendTo(rule.sinks, eventOf('done', pane, 'turn ended', { turnSeconds: Math.round(turnMs / 1000) }));
      }
      if (t.exit) {
        s.workingSince = null;
        const failed = (t.exit.code !== null && t.exit.code !== 0) || t.exit.signal !== null;
        if (failed) {
          const how = t.exit.code !== null ? `exit ${t.exit.code}` : `signal ${t.exit.signal}`;
          for (const rule of rulesFor('error'))
            sendTo(rule.sinks, eventOf('error', pane, t.exit.cause, { exit: `${how} (${t.exit.cause})` }));
        }
        clearTimers(s);
        states.delete(t.handle);
      }
    },
    async test(only) {
      const sinks = o.config().sinks;
      const names = Object.keys(sinks).filter((n) => only === undefined || n === only);
      const who = { handle: null, name: null, agent: null };
      const event: NotifyEvent = {
        id: randomUUID(),
        kind: 'test',
        at: o.now(),
        ...who,
        reason: null,
        ...describe('test', who, null),
      };
      return Promise.all(
        names.flatMap((name) => {
          const sink = sinks[name];
          return sink ? [o.delivery.send(name, sink, event, { once: true })] : [];
        }),
      );
    },
    stop() {
      stopped = true;
      for (const s of states.values()) clearTimers(s);
      o.delivery.stop();
    },
  };
}
