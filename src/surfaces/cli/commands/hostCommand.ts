// `sharpclaw host stop`: ends the resident hosts that `sharpclaw tool` calls leave running
// (engine/host/residentHost.ts), releasing the solutions they hold. They also end on their own after
// SHARPCLAW_RESIDENT_IDLE_SECONDS (default 600) without a call.
import { ToolError } from '../../../engine/errors';
import { stopResidentHosts } from '../../../engine/host/residentHost';
import type { CliCommand } from '../commands';
import { exitCodeFor, printFailure, printSuccess } from '../output';

export const hostCommand: CliCommand = {
  name: 'host',
  usage: 'sharpclaw host stop [options]',
  summary: 'stop the resident Roslyn hosts that keep solutions loaded between tool calls',
  options: {},
  async run(_values, positionals, globals) {
    if (positionals[0] !== 'stop' || positionals.length > 1) {
      const error = new ToolError('invalid_request', `Unknown host action "${positionals.join(' ')}". Valid: stop.`);
      printFailure(globals.outputFormat, 'host', error);
      return exitCodeFor(error);
    }
    const stopped = await stopResidentHosts();
    printSuccess(globals.outputFormat, 'host stop', { stopped }, stopped.length === 0 ? 'No resident host was running.' : `Stopped ${stopped.length} resident host${stopped.length === 1 ? '' : 's'} (pid ${stopped.join(', ')}).`);
    return 0;
  },
};
