// The input of dotnet_solution_inspect: the compilation context, and the page of projects.
import { z } from 'zod';
import { Bounds, boundedInteger } from '../../protocol/paramRules';

/** Selects the compilation context; the workspace is the folder SharpClaw runs in. */
export const SolutionInspectInputSchema = z.strictObject({
  target: z.string().min(1).optional().describe('Workspace-relative .sln, .slnx or .csproj. Default: the top-level one.'),
  configuration: z.string().min(1).optional().describe('MSBuild configuration. Default: Debug.'),
  targetFramework: z.string().min(1).optional().describe("Target framework to evaluate multi-targeted projects for, e.g. net8.0. Default: each project's first."),
  offset: boundedInteger(Bounds.pageOffset).optional().describe('Skip this many projects (paging). Default 0.'),
});

export type SolutionInspectInput = z.infer<typeof SolutionInspectInputSchema>;
