import fs from 'node:fs';
import path from 'node:path';
import { readImports } from './imports.ts';
import { listSourceFiles, listWorkspacePackages } from './workspace.ts';

export interface ImportCycle {
  /** The package folder relative to the workspace root, e.g. `packages/wire`. */
  packageDir: string;
  /** Files of the cycle relative to the package, in import order; the first file closes it. */
  files: string[];
  message: string;
}

// Why: a relative specifier may name the `.ts` file, its emitted `.js` twin, or a folder index.
function resolveRelative(fromFile: string, specifier: string, known: Set<string>): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  const stem = base.replace(/\.(c|m)?jsx?$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${base}.ts`,
    `${base}.tsx`,
    `${base}/index.ts`,
    `${base}/index.tsx`,
  ];
  return candidates.find((c) => known.has(c));
}

/** Relative-import graph of one package's source files (type-only imports included). */
export function importGraph(packageDir: string): Map<string, string[]> {
  const files = listSourceFiles(packageDir)
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => !f.endsWith('.d.ts'));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = fs.readFileSync(path.join(packageDir, file), 'utf8');
    const targets = readImports(source, file)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolveRelative(file, s, known))
      .filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cyclicComponents(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const strongConnect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = component.length === 1 && (graph.get(v) ?? []).includes(v);
      if (component.length > 1 || selfLoop) out.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) strongConnect(v);
  return out;
}

/** One concrete loop through a component, starting at its first file (breadth-first, shortest). */
function loopThrough(component: string[], graph: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = component[0] as string;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift() as string;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const loop = [v];
        while (loop[0] !== start) loop.unshift(previous.get(loop[0] as string) as string);
        return loop;
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return component;
}

/** Import cycles inside each workspace package (or only `packageDirs`, relative to `root`). */
export function checkImportCycles(root: string, packageDirs?: string[]): ImportCycle[] {
  const dirs = packageDirs ?? listWorkspacePackages(root).map((p) => p.dir);
  return dirs.flatMap((dir) => {
    const graph = importGraph(path.join(root, dir));
    return cyclicComponents(graph).map((component) => {
      const files = loopThrough(component, graph);
      const shown = [...files, files[0]].map((f) => `${dir}/${f}`).join(' → ');
      return {
        packageDir: dir,
        files,
        message: `import cycle in ${dir}: ${shown}; move the shared part into a file both can import`,
      };
    });
  });
}
