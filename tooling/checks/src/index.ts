export { checkImportCycles, type ImportCycle, importGraph } from './cycles.ts';
export { floorOf, PACKAGE_FLOORS } from './floors.ts';
export { checkLayering, type LayeringRule, type LayeringViolation } from './layering.ts';
export { checkPublishConfig, type PublishConfigViolation } from './publish-config.ts';
export { checkWorkspaceShape, type ShapeViolation } from './shape.ts';
