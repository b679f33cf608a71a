export { checkImportCycles, type ImportCycle, importGraph } from './cycles.ts';
export { floorOf, PACKAGE_FLOORS } from './floors.ts';
export { checkLayering, type LayeringRule, type LayeringViolation } from './layering.ts';
export { checkWorkspaceShape, type ShapeViolation } from './shape.ts';
