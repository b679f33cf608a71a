import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkImportCycles } from './cycles.ts';
import { checkLayering } from './layering.ts';
import { checkPublishConfig } from './publish-config.ts';
import { checkWorkspaceShape } from './shape.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const json = process.argv.includes('--json');
const layering = checkLayering(root);
const shape = checkWorkspaceShape(root);
const cycles = checkImportCycles(root);
const publishConfig = checkPublishConfig(root);
const total = layering.length + shape.length + cycles.length + publishConfig.length;
if (json) {
  console.log(JSON.stringify({ layering, shape, cycles, publishConfig }, null, 2));
} else {
  for (const v of layering) console.error(`layering: ${v.rule}: ${v.message}`);
  for (const v of shape) console.error(`shape: ${v.message}`);
  for (const c of cycles) console.error(`cycles: ${c.message}`);
  for (const p of publishConfig) console.error(`publish-config: ${p.message}`);
  if (total === 0) console.log('workspace checks: no violations');
}
process.exit(total === 0 ? 0 : 1);
