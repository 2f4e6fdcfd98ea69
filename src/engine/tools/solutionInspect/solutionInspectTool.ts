// dotnet_solution_inspect: what the solution is made of, as MSBuild evaluated it.
import { HostMethods } from '../../protocol/methods';
import { SolutionInspectResultSchema, type SolutionInspectResult } from '../../protocol/semantic';
import { defineTool } from '../toolDefinition';
import { SolutionInspectInputSchema, type SolutionInspectInput } from './solutionInspectInput';
import { renderSolutionInspect } from './renderSolutionInspect';

export const solutionInspectTool = defineTool<SolutionInspectInput, SolutionInspectResult>({
  name: 'dotnet_solution_inspect',
  displayName: 'Inspect .NET solution',
  referenceName: 'dotnetSolutionInspect',
  userDescription: 'Projects, references, target frameworks, packages and test projects of the .NET solution, as MSBuild evaluates them.',
  modelDescription:
    'Inspect the .NET solution or project in the workspace as MSBuild evaluates it: each project (workspace-relative path), its output type, whether it is a test project (evaluated IsTestProject; an explicit false wins), target frameworks and the ones restored, which framework the loaded compilation used, project references and restored package versions. Loading runs MSBuild and needs the user\'s approval the first time and after project files change. Use it before reasoning about project structure, references or test projects.',
  tags: ['csharp', 'dotnet', 'msbuild', 'solution'],
  input: SolutionInspectInputSchema,
  mayExecuteProjectCode: true,
  confirmation: (input) => ({
    title: 'Inspect the .NET solution',
    message: `Loads ${input.target ?? 'the workspace\'s solution'} with MSBuild (${input.configuration ?? 'Debug'}${input.targetFramework ? `, ${input.targetFramework}` : ''}) if it is not loaded yet. SharpClaw asks separately before MSBuild runs project code.`,
  }),
  invoke: (input, context) =>
    context.host.request(
      HostMethods.solutionInspect,
      { workspace: context.workspaceFolder, ...input, tool: 'dotnet_solution_inspect' },
      SolutionInspectResultSchema,
      context.signal,
    ),
  render: renderSolutionInspect,
});
