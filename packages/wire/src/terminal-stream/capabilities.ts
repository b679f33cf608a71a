import type { OpcodeNumber } from './opcodes.ts';

/** A client's kind: desktop clients claim viewports, mobile ones never do. */
export type ClientType = 'desktop' | 'mobile';

/** One capability's static facts. */
export interface CapabilityInfo {
  /** The `@orca/wire` version that introduced it. */
  readonly since: string;
  /** Opcodes it gates. */
  readonly gates: readonly OpcodeNumber[];
  /** Capabilities that must also be granted. */
  readonly requires: readonly CapabilityName[];
}

/**
 * Negotiated capabilities: one generic, strict table. The host grants a capability iff it was
 * requested with exactly `1` and its host-side condition holds (see {@link negotiate}).
 */
export const CAPABILITIES = {
  ackOutput: { since: '0.1.0', gates: [13], requires: [] },
  ackOutputSourceRanges: { since: '0.1.0', gates: [], requires: ['ackOutput'] },
  desktopViewportClaims: { since: '0.1.0', gates: [14], requires: [] },
  outputPause: { since: '0.2.0', gates: [16], requires: [] },
  writeUnavailable: { since: '0.2.0', gates: [17], requires: [] },
} as const satisfies Record<string, { since: string; gates: readonly OpcodeNumber[]; requires: readonly string[] }>;

/** A capability name this build knows. */
export type CapabilityName = keyof typeof CAPABILITIES;

/** Every capability name this build knows, in table order. */
export const CAPABILITY_NAMES = Object.keys(CAPABILITIES) as CapabilityName[];

/** What a client puts in `Subscribe.capabilities`: `1` requests. */
export type CapabilityRequest = Partial<Record<CapabilityName, 1>>;

/** What the host knows when it decides a grant. */
export interface HostConditions {
  clientType: ClientType;
  /** The backend can report source byte ranges (needed for `ackOutputSourceRanges`). */
  sourceRanges: boolean;
}

const GRANTS = new WeakSet<object>();

/** An opaque, frozen set of granted capabilities; made only by {@link negotiate} or {@link grantFromEcho}. */
export interface Grant {
  readonly capabilities: readonly CapabilityName[];
  has(name: string): boolean;
}

function makeGrant(names: Iterable<CapabilityName>): Grant {
  const set = new Set(names);
  const capabilities = Object.freeze(CAPABILITY_NAMES.filter((n) => set.has(n)));
  const grant: Grant = Object.freeze({
    capabilities,
    has: (name: string) => (capabilities as readonly string[]).includes(name),
  });
  GRANTS.add(grant);
  return grant;
}

/** The empty grant (nothing negotiated). */
export const NO_GRANT: Grant = makeGrant([]);

/** True for a grant made by this module (a hand-made lookalike is not one). */
export function isGrant(value: unknown): value is Grant {
  return typeof value === 'object' && value !== null && GRANTS.has(value);
}

function hostAllows(name: CapabilityName, request: CapabilityRequest, host: HostConditions): boolean {
  switch (name) {
    case 'ackOutputSourceRanges':
      return request.ackOutput === 1 && host.sourceRanges;
    case 'desktopViewportClaims':
      return host.clientType === 'desktop';
    default:
      return true;
  }
}

/**
 * Host side: the grant for a parsed Subscribe request.
 *
 * @example
 * const grant = negotiate({ ackOutput: 1 }, { clientType: 'desktop', sourceRanges: false });
 * grant.has('ackOutput'); // true
 */
export function negotiate(request: CapabilityRequest, host: HostConditions): Grant {
  return makeGrant(CAPABILITY_NAMES.filter((name) => request[name] === 1 && hostAllows(name, request, host)));
}

/** The `subscribed.capabilities` echo of a grant: exactly the grant, omitted (undefined) when empty. */
export function echoOf(grant: Grant): Partial<Record<CapabilityName, 1>> | undefined {
  if (grant.capabilities.length === 0) return undefined;
  return Object.fromEntries(grant.capabilities.map((n) => [n, 1])) as Partial<Record<CapabilityName, 1>>;
}

/**
 * Client side: the grant read from a `subscribed` event. Only `=== 1` grants; prerequisites apply
 * (`ackOutputSourceRanges` also needs `ackOutput` and a non-empty `streamGeneration`). Never throws.
 */
export function grantFromEcho(event: unknown): Grant {
  if (typeof event !== 'object' || event === null) return NO_GRANT;
  const caps = (event as { capabilities?: unknown }).capabilities;
  if (typeof caps !== 'object' || caps === null) return NO_GRANT;
  const echoed = new Set(
    CAPABILITY_NAMES.filter((n) => Object.hasOwn(caps, n) && (caps as Record<string, unknown>)[n] === 1),
  );
  const generation = (event as { streamGeneration?: unknown }).streamGeneration;
  const granted = [...echoed].filter((n) => {
    const info: CapabilityInfo = CAPABILITIES[n];
    if (!info.requires.every((r) => echoed.has(r))) return false;
    if (n === 'ackOutputSourceRanges') return typeof generation === 'string' && generation.length > 0;
    return true;
  });
  return makeGrant(granted);
}

/** Every capability this build knows, minus `desktopViewportClaims` for mobile. */
export function defaultRequest(type: ClientType): CapabilityRequest {
  const request: CapabilityRequest = {};
  for (const name of CAPABILITY_NAMES) {
    if (type === 'mobile' && name === 'desktopViewportClaims') continue;
    request[name] = 1;
  }
  return request;
}
