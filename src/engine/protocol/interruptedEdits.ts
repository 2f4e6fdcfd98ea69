// An apply a killed host left unfinished, as the host reports it: in an edit's result, in
// sharpclaw/interruptedEdits and in a failed edit's error data. Its own file because both
// edits.ts and semantic.ts (the error data) need it, and semantic.ts is below edits.ts.
import { z } from 'zod';

/** Typed data only: the compact text is rendered by tools/edits/renderEdits.ts. */
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
