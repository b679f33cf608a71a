import { z } from 'zod';

const version = z.number().int().min(0);

/** What a host's `status.get` returns (extra keys allowed; clients strip them). */
export const StatusGetResultSchema = z.object({
  runtimeProtocolVersion: version,
  minCompatibleRuntimeClientVersion: version,
  appVersion: z.string(),
  capabilities: z.array(z.string()),
});
/** A parsed `status.get` result. */
export type StatusGetResult = z.infer<typeof StatusGetResultSchema>;

/** What a client knows about itself. */
export const CompatClientSchema = z.object({
  runtimeProtocolVersion: version,
  minCompatibleRuntimeServerVersion: version,
  appVersion: z.string(),
});
/** A client's own versions. */
export type CompatClient = z.infer<typeof CompatClientSchema>;

/** The verdict of {@link checkCompat}. */
export type CompatVerdict = 'ok' | 'client-too-old' | 'server-too-old' | 'unknown';

/** Warnings that never block. */
export type CompatWarning = 'app-version-skew';

const VersionKeysSchema = z.object({
  runtimeProtocolVersion: version.optional(),
  minCompatibleRuntimeClientVersion: version.optional(),
  appVersion: z.string().optional(),
});

/**
 * Decides whether a client can talk to a host from the host's `status.get` result. Reads exactly
 * the version keys (absent = 0). A failed call (pass `undefined` or an Error), a non-object or a
 * wrong-typed key is `unknown`, never `ok`. client-too-old is checked before server-too-old; a
 * different `appVersion` only warns.
 *
 * @example
 * const { verdict } = checkCompat(ownVersions, await rpc('status.get').catch((e) => e));
 */
export function checkCompat(
  client: CompatClient,
  statusGet: unknown,
): { verdict: CompatVerdict; warnings: CompatWarning[] } {
  if (typeof statusGet !== 'object' || statusGet === null || Array.isArray(statusGet) || statusGet instanceof Error) {
    return { verdict: 'unknown', warnings: [] };
  }
  const parsed = VersionKeysSchema.safeParse(statusGet);
  if (!parsed.success) return { verdict: 'unknown', warnings: [] };
  const host = parsed.data;
  const warnings: CompatWarning[] = [];
  if (host.appVersion !== undefined && host.appVersion !== client.appVersion) warnings.push('app-version-skew');
  if (client.runtimeProtocolVersion < (host.minCompatibleRuntimeClientVersion ?? 0)) {
    return { verdict: 'client-too-old', warnings };
  }
  if ((host.runtimeProtocolVersion ?? 0) < client.minCompatibleRuntimeServerVersion) {
    return { verdict: 'server-too-old', warnings };
  }
  return { verdict: 'ok', warnings };
}

/** True for a runtime capability string `area.feature.vN` (lowercase words, N ≥ 1). */
export function isCapabilityName(value: unknown): value is string {
  return typeof value === 'string' && /^[a-z][a-z0-9-]*\.[a-z][a-zA-Z0-9-]*\.v[1-9][0-9]*$/.test(value);
}
