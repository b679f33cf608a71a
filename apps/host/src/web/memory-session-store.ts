import type { WebSessionRecord, WebSessionStore } from '../store/web-session-store.ts';

/** A {@link WebSessionStore} in memory: sessions end with the process (tests, embedders without a store). */
export function memoryWebSessionStore(): WebSessionStore {
  const rows = new Map<string, WebSessionRecord>();
  return {
    insertWebSession: (s) => void rows.set(s.id, { ...s, lastUsedAt: s.createdAt, revokedAt: null, revokedWhy: null }),
    getWebSession: (id) => rows.get(id) ?? null,
    activeWebSessions: () => [...rows.values()].filter((r) => r.revokedAt === null),
    touchWebSession(id, at) {
      const r = rows.get(id);
      if (r) rows.set(id, { ...r, lastUsedAt: Math.max(r.lastUsedAt, at) });
    },
    endWebSession(id, at, why) {
      const r = rows.get(id);
      if (!r || r.revokedAt !== null) return false;
      rows.set(id, { ...r, revokedAt: at, revokedWhy: why });
      return true;
    },
    pruneWebSessions(before) {
      let n = 0;
      for (const [id, r] of rows)
        if (r.revokedAt !== null && r.revokedAt < before) {
          rows.delete(id);
          n += 1;
        }
      return n;
    },
  };
}
