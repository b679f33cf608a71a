import type { ViteUserConfig } from 'vitest/config';

/** Export condition that points every @orca package at its `src/`. */
export declare const ORCA_SOURCE_CONDITION: 'orca-source';
/** The shared vitest preset; `overrides` are deep-merged. */
export declare function orcaVitest(overrides?: ViteUserConfig): ViteUserConfig;
