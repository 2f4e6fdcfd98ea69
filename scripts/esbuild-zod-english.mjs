// An esbuild plugin: bundles zod with its English messages only (see below); used by esbuild.mjs for
// every bundle, and by its unit test.
import path from 'node:path';

/**
 * zod 4 re-exports its 40 message locales (`export * as locales`), which defeats tree shaking and
 * adds ~250 KB to each Node bundle. SharpClaw only ever uses zod's default, English messages (the
 * default zod registers on its first schema), so zod's locales index resolves to one exporting `en` only.
 */
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: path.join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-english-only' } : undefined);
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({ contents: 'export { default as en } from "./en.js";\n', resolveDir: path.dirname(args.path), loader: 'js' }));
  },
};
