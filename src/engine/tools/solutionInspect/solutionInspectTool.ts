// dotnet_solution_inspect: what the solution is made of, as MSBuild evaluated it.
import { Methods } from '../../protocol/methods';
import { hostTool } from '../hostTool';
import { SolutionInspectInputSchema } from './solutionInspectInput';
import { renderSolutionInspect } from './renderSolutionInspect';

export const solutionInspectTool = hostTool({
  name: 'dotnet_solution_inspect',
  displayName: 'Inspect .NET solution',
  referenceName: 'dotnetSolutionInspect',
  userDescription: 'Projects, references, target frameworks, packages and test projects of the .NET solution, as MSBuild evaluates them.',
  modelDescription:
    'Inspect the .NET solution or project in the workspace as MSBuild evaluates it: each project (workspace-relative path), its output type, whether it is a test project (evaluated IsTestProject; an explicit false wins), target frameworks and the ones restored, which framework the loaded compilation used, project references and restored package versions. Loading runs MSBuild and needs the user\'s approval the first time and after project files change. Use it before reasoning about project structure, references or test projects.',
  tags: ['csharp', 'dotnet', 'msbuild', 'solution'],
  input: SolutionInspectInputSchema,
  confirmation: (input) => ({
    title: 'Inspect the .NET solution',
    message: `Loads ${input.target ?? 'the workspace\'s solution'} with MSBuild (${input.configuration ?? 'Debug'}${input.targetFramework ? `, ${input.targetFramework}` : ''}) if it is not loaded yet. SharpClaw asks separately before MSBuild runs project code.`,
  }),
  method: Methods.solutionInspect,
  params: (input) => input,
  render: renderSolutionInspect,
});
