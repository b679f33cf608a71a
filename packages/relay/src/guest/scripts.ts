import { RelayError } from '../errors.ts';
import { RELAY_EXIT_CODES } from '../protocol.ts';

const VERSION_RE = /^[A-Za-z0-9+.-]+$/;
const HEREDOC_DELIMITER = 'ORCA_RELAY_EOF_';

/** Throw `ORCA_RELAY_BAD_VERSION` unless `version` only uses `[A-Za-z0-9+.-]`. */
export function assertRelayVersion(version: string): void {
  if (!VERSION_RE.test(version) || version === '.' || version === '..') {
    throw new RelayError(
      'ORCA_RELAY_BAD_VERSION',
      `relay version must match [A-Za-z0-9+.-]+, got ${JSON.stringify(version.slice(0, 200))}`,
    );
  }
}

function base64Lines(data: string | Uint8Array): string {
  const b64 = Buffer.from(data).toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 76) lines.push(b64.slice(i, i + 76));
  return lines.join('\n');
}

/**
 * `launch.sh` (POSIX sh): exit `RELAY_EXIT_CODES.staleInstall` on a stale/missing install, probe
 * node candidates for major ≥ 18 (first passing wins), exit `RELAY_EXIT_CODES.noNode` when none
 * passes, else exec the relay.
 */
export function buildLaunchScript(): string {
  return `#!/bin/sh
# orca-relay launcher (generated)
d=\${0%/*}
v=
if [ -r "$d/.version" ]; then IFS= read -r v < "$d/.version" || :; fi
if [ -z "\${ORCA_RELAY_VERSION:-}" ] || [ "$ORCA_RELAY_VERSION" != "$v" ]; then
  echo "orca-relay: stale install (want \${ORCA_RELAY_VERSION:-<unset>}, have \${v:-<none>})" >&2
  exit ${RELAY_EXIT_CODES.staleInstall}
fi
probe='process.exit(Number(process.versions.node.split(".")[0])>=18?0:1)'
first=$(command -v node 2>/dev/null || :)
for n in "$first" "$HOME"/.nvm/versions/node/*/bin/node /usr/local/bin/node /usr/bin/node "$HOME/.local/bin/node" /opt/homebrew/bin/node "$HOME/.volta/bin/node"; do
  [ -n "$n" ] && [ -f "$n" ] && [ -x "$n" ] || continue
  if "$n" -e "$probe" >/dev/null 2>&1; then exec "$n" "$d/relay.cjs"; fi
done
echo "orca-relay: no node >= 18 found" >&2
exit ${RELAY_EXIT_CODES.noNode}
`;
}

/**
 * The install script fed to `sh -s`: writes `relay.cjs` and `launch.sh` via tmp + `mv`, and
 * `.version` last, so a killed install reads as stale.
 *
 * @example
 * spawn('sh', ['-s']).stdin.end(buildInstallScript(guestBundle()))
 */
export function buildInstallScript(bundle: { code: Uint8Array | string; version: string }): string {
  assertRelayVersion(bundle.version);
  const dir = `"$HOME/.orca-guest/relay/${bundle.version}"`;
  return `set -e
umask 077
d=${dir}
mkdir -p "$d"
base64 -d > "$d/relay.cjs.$$.tmp" <<'${HEREDOC_DELIMITER}'
${base64Lines(bundle.code)}
${HEREDOC_DELIMITER}
mv -f "$d/relay.cjs.$$.tmp" "$d/relay.cjs"
base64 -d > "$d/launch.sh.$$.tmp" <<'${HEREDOC_DELIMITER}'
${base64Lines(buildLaunchScript())}
${HEREDOC_DELIMITER}
chmod 700 "$d/launch.sh.$$.tmp"
mv -f "$d/launch.sh.$$.tmp" "$d/launch.sh"
printf '%s\\n' '${bundle.version}' > "$d/.version.$$.tmp"
mv -f "$d/.version.$$.tmp" "$d/.version"
`;
}

/** The shell line that starts an installed relay: `exec sh "$HOME/.orca-guest/relay/<v>/launch.sh"`. */
export function launchLine(version: string): string {
  assertRelayVersion(version);
  return `exec sh "$HOME/.orca-guest/relay/${version}/launch.sh"`;
}
