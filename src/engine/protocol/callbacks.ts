// Mirrors the host's server-to-client traffic (SharpClaw.Protocol/Semantic): the evaluation and
// write authorization requests and the load progress notification. The drift test checks them.
import { z } from 'zod';

export const AuthorizeEvaluationParamsSchema = z.object({
  workspace: z.string(),
  target: z.string(),
  configuration: z.string(),
  targetFramework: z.string().nullable(),
  reason: z.enum(['coldLoad', 'structuralChange', 'dynamicImports']),
  changedFiles: z.array(z.string()),
  tool: z.string().nullable(),
  /** The call id of the request that needs the evaluation (its `call` param; null: none). */
  call: z.string().nullable(),
});

export const AuthorizeEvaluationResultSchema = z.object({
  granted: z.boolean(),
  message: z.string().nullable().optional(),
  /** sharpclaw/authorizeWrite only: the client applied the planned texts itself. */
  appliedByClient: z.boolean().nullable().optional(),
});

export const LoadProgressSchema = z.object({
  /** load: a workspace load, counted in projects; index: the store's syntax index being built, counted in file steps (parsed, then stored). */
  kind: z.enum(['load', 'index']),
  target: z.string(),
  configuration: z.string(),
  targetFramework: z.string().nullable(),
  projectIndex: z.number().int(),
  projectCount: z.number().int(),
  currentProject: z.string(),
  percent: z.number().int().nullable(),
});

export type AuthorizeEvaluationParams = z.infer<typeof AuthorizeEvaluationParamsSchema>;
export type AuthorizeEvaluationResult = z.infer<typeof AuthorizeEvaluationResultSchema>;
export type LoadProgress = z.infer<typeof LoadProgressSchema>;
