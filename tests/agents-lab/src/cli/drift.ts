// Tours each lab agent's newest release from the npm registry and prints what changed against the
// pinned release: moments that fail (a marker a rule needs is gone), screens that differ, moments
// that never came, hooks. Exit 0: every toured release holds; 1: one drifted; 2: usage or npm error.
//   pnpm --filter @orca/agents-lab drift [build...] [--version X] [--always] [--json] [--write-fixtures]
import { parseArgs } from 'node:util';
import { DriftError } from '../drift/drift-error.ts';
import { formatDrift } from '../drift/drift-report.ts';
import { type BuildDrift, DRIFT_BUILDS, type DriftBuild, drifted, driftOf } from '../drift/drift-run.ts';
import { parseReleaseName } from '../drift/registry.ts';
import { writeTourFixtures } from '../harness/fixture-writer.ts';

const HELP = `usage: pnpm --filter @orca/agents-lab drift [build...] [options]

Tours the registry's newest release of each lab agent (${DRIFT_BUILDS.join(', ')}) offline in a
real host and prints what changed against the pinned release.

options:
  --version X        tour release X instead of the newest (one build only)
  --always           tour even when the newest release is the pinned one
  --json             print the results as JSON
  --write-fixtures   write a passing release's screens into agent-status's corpus
  -h, --help         this text

exit: 0 every toured release holds, 1 a release drifted, 2 usage, registry or install error
cache: $ORCA_LAB_DRIFT_CACHE (default ~/.cache/orca-agents-lab/drift), one npm prefix per release
`;

function parse(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      version: { type: 'string' },
      always: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'write-fixtures': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const unknown = positionals.filter((b) => !(DRIFT_BUILDS as readonly string[]).includes(b));
  if (unknown.length > 0)
    throw new DriftError('usage', `unknown build ${unknown.join(', ')}; known: ${DRIFT_BUILDS.join(', ')}`);
  const builds = (positionals.length > 0 ? positionals : [...DRIFT_BUILDS]) as DriftBuild[];
  if (values.version !== undefined && builds.length !== 1) throw new DriftError('usage', '--version names one build');
  return { ...values, builds, release: values.version === undefined ? undefined : parseReleaseName(values.version) };
}

async function main(argv: readonly string[]): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (error) {
    process.stderr.write(`drift: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const results: BuildDrift[] = [];
  for (const build of args.builds) {
    const result = await driftOf(build, {
      ...(args.release !== undefined ? { release: args.release } : {}),
      always: args.always,
      ...(args['write-fixtures']
        ? {
            onTour: (report) => {
              if (report.moments.every((m) => m.ok)) writeTourFixtures(report);
            },
          }
        : {}),
    });
    results.push(result);
    if (!args.json) process.stdout.write(formatDrift([result]));
  }
  if (args.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  return results.some(drifted) ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`drift: ${error instanceof DriftError ? `${error.code}: ` : ''}${(error as Error).message}\n`);
    process.exit(2);
  },
);
