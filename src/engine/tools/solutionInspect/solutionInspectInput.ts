import { z } from 'zod';

/** Selects the compilation context; the workspace is the folder SharpClaw runs in. */
export const SolutionInspectInputSchema = z.strictObject({
  target: z.string().min(1).optional().describe('Workspace-relative .sln, .slnx or .csproj. Default: the one top-level solution, else the one top-level project.'),
  configuration: z.string().min(1).optional().describe('MSBuild configuration. Default: Debug.'),
  targetFramework: z.string().min(1).optional().describe("Target framework to evaluate multi-targeted projects for, e.g. net8.0. Default: each project's first."),
});

export type SolutionInspectInput = z.infer<typeof SolutionInspectInputSchema>;
