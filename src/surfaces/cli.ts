#!/usr/bin/env node
// dist/cli.js, the `sharpclaw` command: runs the CLI from dist/core.js, the bundle it shares with the
// extension (src/surfaces/bundle.ts).
(require('./core.js') as typeof import('./bundle')).runCli();
