// dotnet_solution_inspect: what the solution is made of, as MSBuild evaluated it, a page of projects at a time.
import { Methods } from '../../protocol/methods';
import { hostTool } from '../hostTool';
import { SolutionInspectInputSchema } from './solutionInspectInput';
import { renderSolutionInspect, type InspectedSolution } from './renderSolutionInspect';
import { solutionInspectStructure } from './solutionInspectStructure';

export const solutionInspectTool = hostTool({
  name: 'dotnet_solution_inspect',
  displayName: 'Inspect .NET solution',
  referenceName: 'dotnetSolutionInspect',
  userDescription: 'Projects, references, target frameworks, packages and test projects of the .NET solution, as MSBuild evaluates them.',
  modelDescription:
    'The workspace\'s solution or project as MSBuild evaluates it: each project (workspace-relative path), output type, test project or not (evaluated IsTestProject), target frameworks (not restored, not compiled), project references, direct packages and the analyzers SharpClaw does not run. Paged by project (offset). Loading runs MSBuild, with the user\'s approval.',
  tags: ['csharp', 'dotnet', 'msbuild', 'solution'],
  input: SolutionInspectInputSchema,
  confirmation: (input) => ({
    title: 'Inspect the .NET solution',
    message: `Loads ${input.target ?? 'the workspace\'s solution'} with MSBuild (${input.configuration ?? 'Debug'}${input.targetFramework ? `, ${input.targetFramework}` : ''}) if it is not loaded yet. SharpClaw asks separately before MSBuild runs project code.`,
  }),
  method: Methods.solutionInspect,
  params: ({ offset: _offset, ...context }) => context,
  // The host answers the whole solution; the page starts at offset and ends where the answer budget does (wholeResult.ts).
  result: (answer, input): InspectedSolution => {
    const offset = input.offset ?? 0;
    return offset === 0 ? answer : { ...answer, projects: answer.projects.slice(offset), page: { offset, total: answer.projects.length, nextOffset: null } };
  },
  page: (result: InspectedSolution) =>
    result.projects.length > 1
      ? {
          count: result.projects.length,
          keep: (n: number): InspectedSolution => {
            const offset = result.page?.offset ?? 0;
            const total = result.page?.total ?? result.projects.length;
            return { ...result, projects: result.projects.slice(0, n), page: { offset, total, nextOffset: offset + n } };
          },
        }
      : undefined,
  structure: solutionInspectStructure,
  render: renderSolutionInspect,
});
