// Which folder the MCP server works in: `--cwd` when the person gave it, else the client's first
// root where the client offers roots (the 2025 era's roots/list, asked once before the first tool
// call), else the folder the server was started in. Fixed on the first call for the server's life:
// the Session, its host and its state folder belong to one workspace. A first root that is a file: URI
// but no usable folder (a NUL in its path, missing, not a folder: the engine's one path check,
// engine/input/paths.ts) makes every call answer that typed error, naming the root and --cwd; a root of
// another scheme is not a local folder, and the start folder serves.
import * as path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { ToolError } from '../../engine/errors';
import { workspaceFolderOfUri } from '../../engine/input/paths';

export type WorkspaceSource = 'cwd-flag' | 'client-root' | 'start-folder';

export class McpWorkspace {
  private chosen: { folder: string; source: WorkspaceSource } | undefined;
  private pending: Promise<string> | undefined;

  /** `explicit`: the --cwd folder; `startFolder`: where the server was started (the fallback). */
  constructor(
    explicit: string | undefined,
    private readonly startFolder: string,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    if (explicit !== undefined) this.chosen = { folder: path.resolve(explicit), source: 'cwd-flag' };
  }

  /** The workspace folder once chosen (the fallback until then: nothing runs before a tool call chooses). */
  get folder(): string {
    return this.chosen?.folder ?? this.startFolder;
  }

  get source(): WorkspaceSource | undefined {
    return this.chosen?.source;
  }

  /** Chooses the workspace on the first call, asking `server`'s client for its roots when it offers them. */
  resolve(server: McpServer): Promise<string> {
    if (this.chosen) return Promise.resolve(this.chosen.folder);
    this.pending ??= this.choose(server).then((chosen) => {
      this.chosen = chosen;
      this.log(`sharpclaw mcp: workspace ${chosen.folder} (${chosen.source === 'client-root' ? "the client's first root" : 'the folder the server started in; the client offers no root'})`);
      return chosen.folder;
    });
    return this.pending;
  }

  private async choose(server: McpServer): Promise<{ folder: string; source: WorkspaceSource }> {
    const fallback = { folder: this.startFolder, source: 'start-folder' as const };
    if (!server.server.getClientCapabilities()?.roots) return fallback;
    let roots: Array<{ uri: string }>;
    try {
      roots = (await server.server.listRoots()).roots;
    } catch (error) {
      // A 2026-07-28 connection has no server→client requests; a client may also fail to answer.
      this.log(`sharpclaw mcp: roots/list failed (${error instanceof Error ? error.message : String(error)})`);
      return fallback;
    }
    const first = roots[0];
    if (!first) return fallback;
    if (typeof first.uri !== 'string' || !/^file:/i.test(first.uri)) {
      this.log(`sharpclaw mcp: the client's first root ${String(first.uri).slice(0, 300)} is not a file: URI`);
      return fallback;
    }
    try {
      return { folder: workspaceFolderOfUri(first.uri, "The client's first root"), source: 'client-root' };
    } catch (error) {
      throw error instanceof ToolError ? new ToolError(error.code, `${error.message} Offer a local folder as the first root, or start the server with --cwd DIR.`) : error;
    }
  }
}
