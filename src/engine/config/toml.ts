// smol-toml (a TOML 1.0 parser and writer) for the CommonJS build: the package is an ES module
// with a CommonJS build beside it, which TypeScript's node16 resolution will not `import` from
// CommonJS; its types are imported as ESM and the CommonJS build is required (esbuild bundles it).
import type * as SmolToml from 'smol-toml' with { 'resolution-mode': 'import' };

// eslint-disable-next-line @typescript-eslint/no-require-imports
const toml = require('smol-toml') as typeof SmolToml;

export const parseToml: typeof SmolToml.parse = toml.parse;
export const stringifyToml: typeof SmolToml.stringify = toml.stringify;
