// Mirrors SharpClaw.Protocol's records (server/src/SharpClaw.Protocol). A unit test compares these
// schemas with the JSON Schema the host exports (`--print-protocol-schema`) and fails on drift.
import { z } from 'zod';

export const SdkInfoSchema = z.object({
  version: z.string(),
  path: z.string(),
});

export const RuntimeInfoSchema = z.object({
  frameworkDescription: z.string(),
  runtimeIdentifier: z.string(),
  dotnetRoot: z.string().nullable(),
});

export const LoadedContextSchema = z.object({
  target: z.string(),
  configuration: z.string(),
  targetFramework: z.string().nullable(),
  projectCount: z.number().int(),
  /** Rebuilt from the approved snapshot in the store (no MSBuild ran in this host for it). */
  fromSnapshot: z.boolean(),
});

export const HostStatusSchema = z.object({
  hostVersion: z.string(),
  roslynVersion: z.string(),
  runtime: RuntimeInfoSchema,
  sdks: z.array(SdkInfoSchema),
  loadedContexts: z.array(LoadedContextSchema),
  processId: z.number().int(),
  clientProcessId: z.number().int().nullable(),
  startedAt: z.string(),
  logFile: z.string().nullable(),
});

export const ServerInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
});

export const InitializeResultSchema = z.object({
  capabilities: z.object({ textDocumentSync: z.number().int() }),
  serverInfo: ServerInfoSchema,
});

export type SdkInfo = z.infer<typeof SdkInfoSchema>;
export type HostStatus = z.infer<typeof HostStatusSchema>;
export type InitializeResult = z.infer<typeof InitializeResultSchema>;
