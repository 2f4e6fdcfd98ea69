// An apply a killed host left unfinished, as the host reports it: in an edit's result, in
// sharpclaw/interruptedEdits and in a failed edit's error data, and its one compact text. Its own
// file because edits.ts and semantic.ts (the error data) need it, semantic.ts is below edits.ts,
// and both an edit's rendering (tools/edits) and a failed call's (errors.ts) print the report.
import { z } from 'zod';

export const InterruptedEditFileSchema = z.object({
  path: z.string(),
  newPath: z.string().nullable(),
  /** Its planned content is on disk. */
  written: z.boolean(),
});

/** An apply a killed host left unfinished (an unreadable record: `unreadable` set, no files). */
export const InterruptedEditSchema = z.object({
  record: z.string(),
  recordFolder: z.string(),
  summary: z.string().nullable(),
  operation: z.string().nullable(),
  /** ISO 8601, UTC. */
  startedAt: z.string().nullable(),
  files: z.array(InterruptedEditFileSchema),
  removedTemporaryFiles: z.number().int(),
  /** Written files were journaled: Undo Last Edit reverts them. */
  undoable: z.boolean(),
  unreadable: z.string().nullable().optional(),
});

export type InterruptedEdit = z.infer<typeof InterruptedEditSchema>;

/** The report of one apply a killed host left unfinished: a headline, each file, and how to undo it. */
export function interruptedLines(edit: InterruptedEdit): string[] {
  if (edit.unreadable != null) return [`interrupted edit record ${edit.record} could not be read (${edit.unreadable}); it was left in ${edit.recordFolder}.`];
  const written = edit.files.filter((file) => file.written).length;
  const started = (edit.startedAt ?? '').replace('T', ' ');
  return [
    `interrupted edit: '${edit.summary}' (${edit.operation}, started ${started}) stopped after ${written} of ${edit.files.length} file(s); ${edit.removedTemporaryFiles} leftover temporary file(s) removed.`,
    ...edit.files.map((file) => `  ${file.written ? 'written' : 'not written'}: ${file.path}${file.newPath ? ` -> ${file.newPath}` : ''}`),
    ...(edit.undoable ? ['  Undo it with SharpClaw: Undo Last Edit (sharpclaw/undoEdit), or finish it by running the edit again.'] : []),
  ];
}
