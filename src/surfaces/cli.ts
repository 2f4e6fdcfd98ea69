#!/usr/bin/env node
// dist/cli.js, the `sharpclaw` command: starts the Roslyn host a command will need (cli/headStart.ts), then runs the
// CLI from dist/core.js, the bundle it shares with the extension (src/surfaces/bundle.ts), loaded with V8's code
// cache for it (cli/bundleLoader.ts).
import * as path from 'node:path';
import { loadBundle } from './cli/bundleLoader';
import { startHostAhead } from './cli/headStart';

startHostAhead(process.argv.slice(2));
loadBundle<typeof import('./bundle')>(path.join(__dirname, 'core.js')).exports.runCli();
