// A mutation: one file write an agent turn made through one of our tools, with the tool that
// made it and the file's content before and after, so the turn can be verified (which kinds of
// file changed) and undone (with content checks). Writes without a mutation record (shell,
// plugins, external agents) are outside automatic detection.
import * as path from 'node:path';
import { z } from 'zod';

export const MutationKindSchema = z.enum([
  /** A C#, F# or VB source file. */
  'source',
  /** A project file (.csproj, .fsproj, .vbproj, .proj). */
  'project',
  /** A file MSBuild reads for every project: solutions, props/targets, global.json, NuGet config, package versions. */
  'buildInput',
  /** Anything else (docs, data): recorded for undo, but it does not start a check. */
  'other',
]);
export type MutationKind = z.infer<typeof MutationKindSchema>;

export const MutationSchema = z.object({
  /** Unique per recorded write; a retried persistence of the same write carries the same id. */
  id: z.string().min(1),
  /** Absolute path. */
  file: z.string().min(1),
  /** The tool whose call wrote it (csharp_edit, csharp_rename_symbol, ...). */
  tool: z.string().min(1),
  kind: MutationKindSchema,
  /** Content before this write; null when the write created the file. */
  before: z.string().nullable(),
  /** Content after this write; null when the write deleted the file. */
  after: z.string().nullable(),
});
export type Mutation = z.infer<typeof MutationSchema>;

const sourceExtensions = new Set(['.cs', '.fs', '.fsi', '.vb', '.csx', '.razor', '.cshtml', '.xaml']);
const projectExtensions = new Set(['.csproj', '.fsproj', '.vbproj', '.proj', '.shproj', '.projitems']);
const buildInputExtensions = new Set(['.sln', '.slnx', '.slnf', '.props', '.targets', '.editorconfig', '.globalconfig', '.resx']);
const buildInputNames = new Set(['global.json', 'nuget.config', 'directory.packages.props', 'directory.build.props', 'directory.build.targets', 'packages.lock.json', '.editorconfig']);

export function mutationKind(file: string): MutationKind {
  const name = path.basename(file).toLowerCase();
  const extension = path.extname(name);
  if (sourceExtensions.has(extension)) return 'source';
  if (projectExtensions.has(extension)) return 'project';
  if (buildInputNames.has(name) || buildInputExtensions.has(extension)) return 'buildInput';
  return 'other';
}

/** Source, project and build-input changes start the automatic check; other files do not. */
export function startsVerification(kind: MutationKind): boolean {
  return kind !== 'other';
}
