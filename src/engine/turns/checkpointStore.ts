// Where finished turns' checkpoints live: one JSON file per turn in the per-workspace storage
// folder, written atomically (temp file, then rename), so a retry rewrites the same set and a
// crash never leaves half a checkpoint. Undo Last Turn reads the newest one not yet undone.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { writePrivateFile } from '../stateFolder';
import { VerificationReportSchema } from '../verification/report';
import { MutationSchema } from './mutations';
import type { Checkpoint } from './turnRecorder';

const CheckpointFileSchema = z.object({
  id: z.string(),
  workspaceFolder: z.string(),
  mutations: z.array(MutationSchema),
  finalizedAt: z.string().nullable(),
  undoneAt: z.string().nullable().default(null),
  report: VerificationReportSchema.optional(),
});
export type StoredCheckpoint = z.infer<typeof CheckpointFileSchema>;

export class CheckpointStore {
  readonly folder: string;

  constructor(storageFolder: string) {
    this.folder = path.join(storageFolder, 'checkpoints');
  }

  private fileOf(id: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`Checkpoint id "${id}" is not a plain name.`);
    return path.join(this.folder, `${id}.json`);
  }

  /** Writes (or rewrites, on retry) the turn's checkpoint; its mutation ids are never duplicated. */
  save(checkpoint: Checkpoint, undoneAt: string | null = null): void {
    const unique = new Map(checkpoint.mutations.map((mutation) => [mutation.id, mutation]));
    const stored: StoredCheckpoint = { ...checkpoint, mutations: [...unique.values()], undoneAt };
    fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const file = this.fileOf(checkpoint.id);
    writePrivateFile(file, JSON.stringify(stored));
  }

  load(id: string): StoredCheckpoint | undefined {
    try {
      return CheckpointFileSchema.parse(JSON.parse(fs.readFileSync(this.fileOf(id), 'utf8')));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  markUndone(id: string, at = new Date()): void {
    const stored = this.load(id);
    if (stored) this.save(stored, at.toISOString());
  }
}
