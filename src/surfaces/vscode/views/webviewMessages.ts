// Messages between the report webview and the extension. Both sides validate with these
// schemas: the webview is a separate, less trusted context.
import { z } from 'zod';
import { HostStatusSchema } from '../../../engine/protocol/hostStatus';
import { VerificationReportSchema } from '../../../engine/verification/report';

export const HostStateSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stopped') }),
  z.object({ kind: z.literal('starting') }),
  z.object({ kind: z.literal('ready'), pid: z.number().int(), roslynVersion: z.string() }),
  z.object({ kind: z.literal('crashed'), message: z.string() }),
  z.object({ kind: z.literal('failed'), message: z.string() }),
]);

export const ApprovalEntrySchema = z.object({
  at: z.string(),
  kind: z.enum(['evaluation', 'shell', 'write']),
  target: z.string().optional(),
  requestedBy: z.string(),
  granted: z.boolean(),
  source: z.string(),
});

export const LoadProgressMessageSchema = z.object({
  target: z.string(),
  projectIndex: z.number().int(),
  projectCount: z.number().int(),
  currentProject: z.string(),
  percent: z.number().int().nullable(),
});

/** Commands the sidebar's buttons may run; anything else is refused. */
export const sidebarCommands = ['sharpclaw.verifyAffected', 'sharpclaw.loadWorkspace'] as const;

/** Extension → webview. */
export const ToWebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hostState'), state: HostStateSchema, description: z.string() }),
  z.object({ type: z.literal('hostStatus'), status: HostStatusSchema }),
  z.object({ type: z.literal('hostError'), message: z.string() }),
  z.object({ type: z.literal('approvals'), entries: z.array(ApprovalEntrySchema) }),
  z.object({ type: z.literal('loadProgress'), progress: LoadProgressMessageSchema.nullable() }),
  /** Verification reports of this session, newest first (at most a few). */
  z.object({ type: z.literal('reports'), reports: z.array(VerificationReportSchema) }),
]);

/** Webview → extension. */
export const FromWebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('refreshStatus') }),
  z.object({ type: z.literal('restartHost') }),
  z.object({ type: z.literal('showLog') }),
  z.object({ type: z.literal('runCommand'), command: z.enum(sidebarCommands) }),
  /** Open a file of the workspace at a one-based position (a diagnostic or a stack frame). */
  z.object({ type: z.literal('openLocation'), file: z.string().min(1), line: z.number().int().min(1), column: z.number().int().min(1).optional() }),
  /** Sent after the webview has put content on screen, so tests screenshot real content. */
  z.object({ type: z.literal('rendered'), what: z.enum(['hostStatus', 'hostError', 'report']) }),
]);

export type ToWebviewMessage = z.infer<typeof ToWebviewMessageSchema>;
export type FromWebviewMessage = z.infer<typeof FromWebviewMessageSchema>;
