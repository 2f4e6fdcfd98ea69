// Connects the writes of our tools to the running @sharpclaw turn: the host's applied writes
// (csharp_rename_symbol, csharp_edit with apply, which Core applies through the editor) and
// edit_file's. A write is recorded only when the file now holds what the write planned, so a
// file the person changed meanwhile (left alone by the write) is not claimed by the turn.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readWorkspaceText } from '../../../engine/files/boundedRead';
import type { AuthorizeWriteParams } from '../../../engine/protocol/edits';
import type { TurnRecorder } from '../../../engine/turns/turnRecorder';

export class TurnRecording {
  private active: TurnRecorder | undefined;
  private sequence = 0;

  /** The turn recording now (one runs at a time), for the sidebar to tell a running turn from an interrupted one. */
  get activeTurnId(): string | undefined {
    return this.active?.turnId;
  }

  /** Records into `recorder` until the returned disposable is disposed. */
  begin(recorder: TurnRecorder): vscode.Disposable {
    this.active = recorder;
    return new vscode.Disposable(() => {
      if (this.active === recorder) this.active = undefined;
    });
  }

  record(tool: string, file: string, before: string | null, after: string | null): void {
    this.active?.record({ id: `${this.active.turnId}-${++this.sequence}`, file, tool, before, after });
  }

  /** After Core applied a host write: records each file change that landed. */
  async recordHostWrite(params: AuthorizeWriteParams): Promise<void> {
    if (!this.active) return;
    for (const change of params.changes ?? []) {
      const file = path.join(params.workspace, change.newPath ?? change.path);
      const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.fsPath === file);
      const now = document ? document.getText() : readWorkspaceText(file);
      if (now === change.after) this.record(params.tool ?? params.operation, file, change.before, change.after);
    }
  }
}
