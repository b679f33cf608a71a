import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RelayError } from '../errors.ts';
import { relayVersion } from './version.ts';

/** File name of the self-contained guest bundle inside `dist/`. */
export const GUEST_BUNDLE_FILE = 'guest-relay.cjs';

/**
 * The self-contained guest bundle (`dist/guest-relay.cjs`, CJS, node18) and its version.
 * Build it with `pnpm build` (tests build it in a vitest globalSetup).
 *
 * @example
 * const { code, version } = guestBundle();
 */
export function guestBundle(): { code: Buffer; version: string; path: string } {
  const candidates = [
    new URL(`./${GUEST_BUNDLE_FILE}`, import.meta.url),
    new URL(`../../dist/${GUEST_BUNDLE_FILE}`, import.meta.url),
  ];
  for (const url of candidates) {
    const path = fileURLToPath(url);
    if (existsSync(path)) {
      const code = readFileSync(path);
      return { code, version: relayVersion(code), path };
    }
  }
  throw new RelayError(
    'ORCA_RELAY_BAD_OPTIONS',
    `guest bundle ${GUEST_BUNDLE_FILE} not built (run pnpm build in packages/relay)`,
  );
}
