// Who made a document change, as far as VS Code lets us tell: its API says nothing about the
// author of an edit, only where it landed. A change the person typed, pasted or completed lands
// in the active editor at one of its cursors; an agent's edit (Copilot's agent mode, a tool's
// workspace edit) lands in a document without an editor, in another editor, or away from every
// cursor. Undo and redo are the person's. Plain shapes, so the rule is tested without VS Code.

export interface Place {
  line: number;
  character: number;
}

export interface ChangeShape {
  /** The replaced range, before the change. */
  range: { start: Place; end: Place };
  /** The inserted text. */
  text: string;
}

export interface ChangeContext {
  changes: readonly ChangeShape[];
  /** Set for VS Code's undo and redo. */
  isUndoOrRedo: boolean;
  /** The cursors (selection actives and anchors) of the active editor when it shows this document; undefined otherwise. */
  activeEditorCursors: readonly Place[] | undefined;
}

/** The lines a change touches afterwards: where it starts through where its inserted text ends. */
function linesAfter(change: ChangeShape): { first: number; last: number } {
  const inserted = change.text.split('\n').length - 1;
  return { first: change.range.start.line, last: change.range.start.line + inserted };
}

/** True when the person made the change (typed, pasted, completed, undid): not an agent's edit. */
export function isThePersonsChange(context: ChangeContext): boolean {
  if (context.isUndoOrRedo) return true;
  const cursors = context.activeEditorCursors;
  if (!cursors || cursors.length === 0) return false;
  // Every change must sit at a cursor (multi-cursor typing changes several places at once).
  return context.changes.every((change) => {
    const { first, last } = linesAfter(change);
    return cursors.some((cursor) => cursor.line >= first && cursor.line <= last);
  });
}

/** C# sources and the project and build files an edit to which changes what `affected` builds. */
export function isVerifiableFile(fsPath: string): boolean {
  return /\.(cs|csproj|props|targets)$/i.test(fsPath);
}
