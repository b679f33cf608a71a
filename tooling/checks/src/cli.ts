import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkImportCycles } from './cycles.ts';
import { checkLayering } from './layering.ts';
import { checkWorkspaceShape } from './shape.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const json = process.argv.includes('--json');
const layering = checkLayering(root);
const shape = checkWorkspaceShape(root);
const cycles = checkImportCycles(root);
if (json) {
  console.log(JSON.stringify({ layering, shape, cycles }, null, 2));
} else {
  for (const v of layering) console.error(`layering: ${v.rule}: ${v.message}`);
  for (const v of shape) console.error(`shape: ${v.message}`);
  for (const c of cycles) console.error(`cycles: ${c.message}`);
  if (layering.length + shape.length + cycles.length === 0) console.log('workspace checks: no violations');
}
process.exit(layering.length + shape.length + cycles.length === 0 ? 0 : 1);
