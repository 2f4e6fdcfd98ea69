// Where npm's CLI script is, for scripts that run npm with the Node running them (the test bed's
// installs, the CLI's npm package): next to this Node, else the Debian and /usr/local locations.
import fs from 'node:fs';
import path from 'node:path';

export function npmCli() {
  const candidates = [
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    '/usr/lib/node_modules/npm/bin/npm-cli.js',
    '/usr/local/lib/node_modules/npm/bin/npm-cli.js',
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error('Cannot find npm-cli.js next to this Node; set up npm first.');
  return found;
}
