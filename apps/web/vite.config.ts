import { defineConfig } from 'vite';

/**
 * The browser build. `@orca/wire` is resolved through its `orca-source` condition, so the bundle
 * (and the bundle check in `src/browser-bundle.test.ts`) covers wire's real sources with no wire build.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  resolve: { conditions: ['orca-source', 'browser', 'module', 'import', 'default'] },
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // Why: no inline data: scripts or styles, so the host's CSP (script-src 'self') holds.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rollupOptions: {
      onwarn(warning, warn) {
        // Why: zod's sources carry comments Rollup cannot place; harmless, and noisy in every build.
        if (warning.code === 'INVALID_ANNOTATION') return;
        warn(warning);
      },
    },
  },
});
