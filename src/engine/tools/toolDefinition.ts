// One definition per tool serves all three surfaces: VS Code language-model tools, the MCP
// server and the `sharpclaw tool` CLI. The zod input schema is the contract; package.json's
// languageModelTools[].inputSchema is generated from it (scripts/generate-manifest.mjs). The
// definition also carries the name MCP serves it under, and text that names other tools (a
// description, an answer) is written with ToolNames, so each surface shows the names it serves.
import type { z } from 'zod';
import type { Effect } from '../protocol/effects';
import type { PermissionPolicy } from '../permissions/permissionPolicy';
import type { HostRequester } from '../host/hostRequester';
import type { HostRequest } from '../protocol/methods';

export type Surface = 'vscode' | 'cli' | 'mcp';

import type { LoadProgress } from '../host/hostCallbacks';
import type { HostState } from '../host/hostState';
import type { VerificationReport } from '../verification/report';
import type { VerifyArguments } from '../verification/request';
import type { StructureView } from './structuredResult';
import type { PageView } from './wholeResult';

/** The host's lifecycle as a tool may see and drive it (the lsp tool's status and reload). */
export interface HostSessionControl {
  state(): HostState;
  /** The load in progress, if any: its last progress step. */
  loading(): LoadProgress | undefined;
  /** Stops the host, dropping its loaded contexts and proposals; the next call starts a new one. */
  restart(): Promise<void>;
}

export interface ToolContext {
  /** Absolute path of the workspace folder the tool works in. */
  workspaceFolder: string;
  permissions: PermissionPolicy;
  /** This call's id (permissions/grants.ts): sent with its host requests, named in its permission requests. */
  call?: string;
  /** The Roslyn host, started on first use. */
  host: HostRequester;
  surface: Surface;
  signal: AbortSignal;
  /** When the surface needs the answer (Date.now() time), if it must have one by then: the MCP server's load wait. */
  answerBy?: number;
  /** Reports progress of long work (loads, builds) to whoever shows it. */
  progress(message: string, percent?: number): void;
  /** Called after the host wrote an edit for this call (so VS Code's Undo Last Edit can replay it in order). */
  onEditApplied?(summary: string): void;
  /** The host's lifecycle (absent where a surface keeps it to itself). */
  hostSession?: HostSessionControl;
  /**
   * The session's one verification entry (Session.verify: its settings layers, configured dotnet,
   * permission policy and report events); the call's signal unless `signal` is given.
   */
  verify(args: VerifyArguments, options: { requestedBy: string; progress?: (message: string) => void; signal?: AbortSignal }): Promise<VerificationReport>;
}

/** A tool as text names it: by `name` (LM tools, CLI) or `mcpName` (MCP). */
export type NamedTool = Pick<ToolDefinition, 'name' | 'mcpName'>;

/** How a surface names tools in text an agent reads. */
export interface ToolNames {
  of(tool: NamedTool): string;
}

/** VS Code's LM tools and the CLI: the definition's name (csharp_navigate). */
export const lmToolNames: ToolNames = { of: (tool) => tool.name };

/** The MCP server: the bridge spec's name where there is one (navigate), else the definition's. */
export const mcpToolNames: ToolNames = { of: (tool) => tool.mcpName ?? tool.name };

export function toolNamesOn(surface: Surface): ToolNames {
  return surface === 'mcp' ? mcpToolNames : lmToolNames;
}

export interface ToolConfirmation {
  title: string;
  message: string;
}

export interface ToolDefinition<Input = unknown, Result = unknown> {
  name: string;
  /** The name MCP clients see, where the bridge spec names the tool otherwise (navigate for csharp_navigate). */
  mcpName?: string;
  displayName: string;
  /** What an agent reads to decide when to call the tool (naming other tools as the LM tools do). */
  modelDescription: string;
  /** Where the description names other tools: it as a surface names them (namingOtherTools fills both). */
  describe?(names: ToolNames): string;
  /** What a person reads in the tool picker. */
  userDescription: string;
  /** The LM tool reference name (`#name` in chat). */
  referenceName: string;
  tags: string[];
  input: z.ZodType<Input>;
  /** The schema of what invoke returns, where there is one (host tools: the method's result schema); MCP publishes it as the output schema. */
  output?: z.ZodType<Result>;
  /**
   * What a call may do (the authorization vocabulary, protocol/effects.ts): `read` answers questions,
   * `write` may change workspace files, `build` runs dotnet build/test (project code). Any host-backed
   * tool may also need an MSBuild evaluation; that is authorized separately by the permission policy,
   * whatever the effect. A host-backed tool (hostTool.ts) has its method's effect.
   */
  effects: Effect;
  /** The host methods a call may make (absent: none); the tool's effect covers each of theirs (a test walks both tables). */
  hostMethods?: readonly HostRequest[];
  /** Whether a call can wait on a workspace load (default yes): a surface with a deadline (MCP's load wait) answers `loading` only for these. */
  mayLoad?(input: Input): boolean;
  /** Without side effects: what a chat confirmation should show before the call. */
  confirmation?(input: Input): ToolConfirmation | undefined;
  invoke(input: Input, context: ToolContext): Promise<Result>;
  /** Compact text for agents: few tokens, fixed order; other tools named as the calling surface names them (default: LM names). */
  render(result: Result, names?: ToolNames): string;
  /**
   * What a client gets beside the text (structuredResult.ts): absent, the output record said for an
   * agent (exclusions summarised, workspace-relative paths); null, nothing (the text says all).
   */
  structure?: StructureView<Result> | null;
  /** The page the whole-result budget may cut (wholeResult.ts), where the result does not follow the protocol's paging. */
  page?(result: Result): PageView | undefined;
}

/** Erases the type parameters so tools of different shapes can sit in one registry. */
export type AnyToolDefinition = ToolDefinition<any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function defineTool<Input, Result>(definition: ToolDefinition<Input, Result>): ToolDefinition<Input, Result> {
  return definition;
}

/** A description that names other tools, written once: its LM text and the way to write it for any surface. */
export function namingOtherTools(describe: (names: ToolNames) => string): { modelDescription: string; describe(names: ToolNames): string } {
  return { modelDescription: describe(lmToolNames), describe };
}

/** The description a surface shows. */
export function descriptionOn(tool: Pick<ToolDefinition, 'modelDescription' | 'describe'>, names: ToolNames): string {
  return tool.describe ? tool.describe(names) : tool.modelDescription;
}
