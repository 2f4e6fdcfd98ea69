// What an apply the host was running when it died had already written, read from the durable
// record the host writes before its first write (server Semantic/Edits/InterruptedEdits.cs:
// `<workspace state folder>/journal/apply-*.json`, every file's path, new path, before and after
// bytes). A file counts as written when its after-state is on disk (and a moved file's source is
// gone) — the rule InterruptedEdits.RecoverOne applies at the host's next start.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { workspaceStateFolder } from '../stateFolder';
import { readBoundedBytes, workspaceTextMaxBytes } from '../files/boundedRead';

const ApplyRecordSchema = z.object({
  workspace: z.string(),
  files: z.array(z.object({ path: z.string(), newPath: z.string().nullable(), after: z.string() })),
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function contentHash(file: string): string | undefined {
  try {
    const bytes = readBoundedBytes(file, { maxBytes: workspaceTextMaxBytes, what: 'workspace files' });
    return bytes === undefined ? undefined : sha256(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The files (workspace-relative, `old -> new` for moves) that interrupted applies of `workspaceFolder`
 * recorded at or after `sinceMs` had written. Unreadable records are skipped: this only names files.
 */
export function filesWrittenByInterruptedApplies(workspaceFolder: string, sinceMs: number, stateRootDir?: string): string[] {
  let journal: string;
  try {
    journal = path.join(stateRootDir ? workspaceStateFolder(workspaceFolder, stateRootDir) : workspaceStateFolder(workspaceFolder), 'journal');
  } catch {
    return [];
  }
  let names: string[];
  try {
    names = fs.readdirSync(journal).filter((name) => name.startsWith('apply-') && name.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const written: string[] = [];
  for (const name of names) {
    const file = path.join(journal, name);
    try {
      // Written before the apply's first write; one older than the request is an earlier host's.
      if (fs.statSync(file).mtimeMs < sinceMs - 1000) continue;
      const record = ApplyRecordSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
      const relative = (p: string) => path.relative(record.workspace, path.resolve(record.workspace, p)).split(path.sep).join('/');
      for (const planned of record.files) {
        const source = path.resolve(record.workspace, planned.path);
        const target = planned.newPath ? path.resolve(record.workspace, planned.newPath) : source;
        const done = contentHash(target) === sha256(Buffer.from(planned.after, 'base64')) && (!planned.newPath || !fs.existsSync(source));
        if (done) written.push(planned.newPath ? `${relative(planned.path)} -> ${relative(planned.newPath)}` : relative(planned.path));
      }
    } catch {
      // Half-written or foreign: the host's next start reports it.
    }
  }
  return written;
}
