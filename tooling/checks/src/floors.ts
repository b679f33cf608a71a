/**
 * The floors of ../shared/ARCHITECTURE.md. A package may import only packages on a lower floor;
 * `tests/*` sit above everything, `tooling/*` below everything.
 */
export const PACKAGE_FLOORS: Readonly<Record<string, number>> = {
  '@orca/wire': 1,
  '@orca/hook-templates': 1,
  '@orca/command-hooks': 1,
  '@orca/agent-status': 1,
  '@orca/relay': 2,
  '@orca/web': 2,
  '@orca/keeper': 2,
  '@orca/host': 3,
};

/** Floor of a workspace package by name and folder group; tooling is 0, tests are 99. */
export function floorOf(name: string, group: string): number {
  const known = PACKAGE_FLOORS[name];
  if (known !== undefined) return known;
  if (group === 'tests') return 99;
  if (group === 'tooling') return 0;
  // Why: an unknown package under packages/ or apps/ is treated as floor 1 so it can import
  // nothing of ours until ARCHITECTURE.md (and this table) give it a floor.
  return group === 'apps' ? 3 : 1;
}

/**
 * Narrower rules than the floors where ARCHITECTURE.md names them: `@orca/relay` (floor 2) may
 * import `@orca/wire` and no other floor-1 package; so may `@orca/web` (the browser client) and
 * `@orca/keeper` (the PTY keeper). `@orca/shared` (tooling, inlined at build) is open to the
 * packages that run in Node.
 */
export const ALLOWED_INTERNAL_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  '@orca/relay': ['@orca/wire', '@orca/shared'],
  '@orca/web': ['@orca/wire'],
  '@orca/keeper': ['@orca/wire', '@orca/shared'],
};

/**
 * Private tooling packages whose code the shared tsup preset inlines into each package at build:
 * shipped code may import them, listed in devDependencies (never dependencies: they are not
 * published).
 */
export const INLINED_PACKAGES: readonly string[] = ['@orca/shared'];
