// execa 9 is ESM-only. The extension and the CLI are CommonJS bundles (esbuild inlines it) and the
// unit tests are CommonJS compiled by tsc; a dynamic import works in all three, whatever the
// Node version's support for require(esm).
import type * as Execa from 'execa' with { 'resolution-mode': 'import' };

export type ExecaModule = typeof Execa;

let loaded: Promise<ExecaModule> | undefined;

export function loadExeca(): Promise<ExecaModule> {
  loaded ??= import('execa');
  return loaded;
}
