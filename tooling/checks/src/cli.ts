import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkLayering } from './layering.ts';
import { checkWorkspaceShape } from './shape.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const json = process.argv.includes('--json');
const layering = checkLayering(root);
const shape = checkWorkspaceShape(root);
if (json) {
  console.log(JSON.stringify({ layering, shape }, null, 2));
} else {
  for (const v of layering) console.error(`layering: ${v.rule}: ${v.message}`);
  for (const v of shape) console.error(`shape: ${v.message}`);
  if (layering.length + shape.length === 0) console.log('workspace checks: no violations');
}
process.exit(layering.length + shape.length === 0 ? 0 : 1);
