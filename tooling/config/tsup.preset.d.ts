import type { Options } from 'tsup';

/** The shared tsup preset: ESM, `.d.ts`, node20, dependencies external. */
export declare function orcaTsup(entry: Record<string, string>, overrides?: Options): Options;
