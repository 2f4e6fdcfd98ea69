#!/usr/bin/env node
// dist/cli.js, the `sharpclaw` command: starts the Roslyn host a command will need (cli/headStart.ts), then runs the
// CLI from dist/core.js, the bundle it shares with the extension (src/surfaces/bundle.ts).
import { startHostAhead } from './cli/headStart';

startHostAhead(process.argv.slice(2));
(require('./core.js') as typeof import('./bundle')).runCli();
