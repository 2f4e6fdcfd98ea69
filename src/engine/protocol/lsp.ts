// Mirrors SharpClaw.Protocol's LspRequests.cs (sharpclaw/lspRequest): one raw LSP request, its params
// and result carried as JSON text. The drift test compares these with the host's exported schema.
import { z } from 'zod';
import { workspaceParams } from './semantic';
import { generatorGaps } from './symbols';

export const LspRequestParamsSchema = z.object({
  ...workspaceParams,
  method: z.string().nullable().optional(),
  params: z.string().nullable().optional(),
  apply: z.boolean().nullable().optional(),
});

export const LspRequestResultSchema = z.object({ json: z.string(), ...generatorGaps });

/** Not an LSP method: the host's ServerCapabilities for what it answers (loads nothing). */
export const lspCapabilitiesMethod = 'sharpclaw/capabilities';
