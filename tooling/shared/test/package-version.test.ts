import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageVersion, UNKNOWN_VERSION } from '../package-version.ts';

function manifest(body: string): URL {
  const dir = mkdtempSync(join(tmpdir(), 'orca-shared-'));
  writeFileSync(join(dir, 'package.json'), body);
  return pathToFileURL(join(dir, 'package.json'));
}

describe('packageVersion (run from source: nothing inlined)', () => {
  it("reads the version of the named package's manifest", () => {
    expect(packageVersion('@orca/x', manifest('{"name":"@orca/x","version":"1.2.3"}'))).toBe('1.2.3');
  });

  it("another package's manifest, an unreadable or missing one gives the unknown version", () => {
    expect(packageVersion('@orca/x', manifest('{"name":"@orca/y","version":"1.2.3"}'))).toBe(UNKNOWN_VERSION);
    expect(packageVersion('@orca/x', manifest('{not json'))).toBe(UNKNOWN_VERSION);
    expect(packageVersion('@orca/x', manifest('{"name":"@orca/x","version":3}'))).toBe(UNKNOWN_VERSION);
    expect(packageVersion('@orca/x', new URL('file:///no/such/package.json'))).toBe(UNKNOWN_VERSION);
  });
});
