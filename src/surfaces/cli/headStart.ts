// Which CLI commands start their Roslyn host ahead (src/engine/host/hostPrestart.ts), read from the raw arguments
// before the CLI's bundle loads: `tool` (the resident host, or one of the call's own where there is none), `verify`
// with --allow-shell (without it the run waits for the person's answer, or is refused, before it needs a host), and
// `mcp` serving (a host of the server's own). Help, `mcp setup` and the other commands start none. A guess only: the
// command parses its arguments as always, and a call that ends before asking leaves the host to end as
// hostPrestart.ts says.
import { bundledServerDll } from '../../engine/host/hostLaunch';
import { prestartHost } from '../../engine/host/hostPrestart';

export function startHostAhead(argv: string[]): void {
  const [command, ...rest] = argv;
  if (rest.some((arg) => arg === '--help' || arg === '-h')) return;
  if (command === 'tool' || (command === 'verify' && rest.includes('--allow-shell'))) prestartHost(bundledServerDll(), 'resident');
  else if (command === 'mcp' && rest[0] !== 'setup') prestartHost(bundledServerDll(), 'stdio');
}
