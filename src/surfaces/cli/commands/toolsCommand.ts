// `sharpclaw tools`: lists the tools with their input schemas.
import { z } from 'zod';
import { allTools } from '../../../engine/tools/registry';
import type { CliCommand } from '../commands';
import { printSuccess } from '../output';

export const toolsCommand: CliCommand = {
  name: 'tools',
  usage: 'sharpclaw tools [options]',
  summary: 'list the tools and their input schemas',
  options: {},
  async run(_values, _positionals, globals) {
    const data = allTools.map((tool) => ({ name: tool.name, description: tool.modelDescription, inputSchema: z.toJSONSchema(tool.input) }));
    printSuccess(globals.outputFormat, 'tools', data, allTools.map((tool) => `${tool.name}  ${tool.userDescription}`).join('\n'));
    return 0;
  },
};
