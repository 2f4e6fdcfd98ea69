// Messages between the report webview and the extension. Both sides validate with these
// schemas: the webview is a separate, less trusted context.
import { z } from 'zod';
import { HostStatusSchema } from '../../../engine/protocol/hostStatus';
import { SolutionInspectResultSchema } from '../../../engine/protocol/semantic';
import { TurnTimelineSchema } from '../../../engine/turns/turnSchemas';
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
  kind: z.enum(['load', 'index']),
  target: z.string(),
  projectIndex: z.number().int(),
  projectCount: z.number().int(),
  currentProject: z.string(),
  percent: z.number().int().nullable(),
});

/** Commands the sidebar's buttons may run; anything else is refused. */
export const sidebarCommands = ['sharpclaw.verifyAffected', 'sharpclaw.loadWorkspace', 'sharpclaw.resetApprovals', 'sharpclaw.undoLastTurn', 'workbench.trust.manage'] as const;

/** What the sidebar knows about the open workspace and the work under way. */
export const WorkspaceMessageSchema = z.object({
  /** False in Restricted Mode: SharpClaw never runs project code, so Load and Verify are not offered. */
  trusted: z.boolean(),
  /** Kinds of permission remembered ("Always for this workspace") for this folder. */
  remembered: z.array(z.enum(['evaluation', 'shell', 'write'])),
  /** A verification under way: who asked, and the latest step. */
  verifying: z.object({ scope: z.string(), requestedBy: z.string(), step: z.string().optional() }).nullable(),
  /** The last load this window ran (Load Workspace), and the tools agents can use on it. */
  load: z.object({ result: SolutionInspectResultSchema, at: z.string() }).nullable(),
  agentTools: z.array(z.object({ name: z.string(), displayName: z.string() })),
});

/** Extension → webview. */
export const ToWebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hostState'), state: HostStateSchema, description: z.string() }),
  z.object({ type: z.literal('hostStatus'), status: HostStatusSchema }),
  z.object({ type: z.literal('hostError'), message: z.string() }),
  z.object({ type: z.literal('approvals'), entries: z.array(ApprovalEntrySchema) }),
  z.object({ type: z.literal('loadProgress'), progress: LoadProgressMessageSchema.nullable() }),
  /** Verification reports of this session, newest first (at most a few). */
  z.object({ type: z.literal('reports'), reports: z.array(VerificationReportSchema) }),
  /** The newest @sharpclaw turns of this workspace, newest first: edits, checks, repairs, verdict. */
  z.object({ type: z.literal('turns'), turns: z.array(TurnTimelineSchema), undoable: z.string().nullable(), running: z.string().nullable() }),
  z.object({ type: z.literal('workspace') }).merge(WorkspaceMessageSchema),
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
  z.object({ type: z.literal('rendered'), what: z.enum(['hostStatus', 'hostError', 'report', 'turns']), text: z.string().max(20_000).optional() }),
]);

export type ToWebviewMessage = z.infer<typeof ToWebviewMessageSchema>;
export type FromWebviewMessage = z.infer<typeof FromWebviewMessageSchema>;
