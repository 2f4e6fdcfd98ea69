// csharp_diagnostics: compiler and SDK-analyzer diagnostics, filtered and paged, in the
// bridge tools' compact format.
import { z } from 'zod';
import { pagingArguments } from '../toolInput';
import { Bounds, diagnosticSeverities, globDialect } from '../../protocol/paramRules';
import { loadDiagnosticsDefaultSeverity } from '../../config/diagnosticsSettings';
import { Methods } from '../../protocol/methods';
import type { DiagnosticsResult } from '../../protocol/symbols';
import { excludedAnalyzersLine } from '../solutionInspect/renderSolutionInspect';
import { hostTool } from '../hostTool';
import { resultLinesBudget } from '../answerBudget';
import { namedList, resolvedFileLines } from './renderSymbols';
import { workspaceSelection } from './symbolSelector';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** At most this many files are named in the incomplete line (a solution file list named 55, 4.6 KB). */
const incompleteNamed = 5;

/** "possibly from the excluded generator Markers.Gen", the tag of a diagnostic or summary line an excluded generator may explain. */
function generatorTag(generators: string): string {
  return `possibly from the excluded generator${generators.includes(',') ? 's' : ''} ${generators}`;
}

/**
 * The project-level caveats, said before any diagnostic: "Markers.Gen (project generator) was not run: 5 errors
 * in 2 projects may not be real (App/App.csproj, Shapes.Models/Shapes.Models.csproj)".
 */
function caveatLines(result: DiagnosticsResult): string[] {
  return [
    ...(result.restoreCaveats ?? []).map(
      (caveat) => `the restore of ${caveat.project} failed (${caveat.failure}): its ${plural(caveat.errors, 'error')} may come from what it could not restore; a build stops at the restore`,
    ),
    ...(result.generatorCaveats ?? []).map(
      (caveat) => `${caveat.generator} (${caveat.origin}) was not run: ${plural(caveat.errors, 'error')} in ${plural(caveat.projectCount, 'project')} may not be real (${namedList(caveat.projects, caveat.projectCount)})`,
    ),
  ];
}

/** The tag of an error in a project whose restore failed (its caveat line names the failure). */
const restoreTag = 'possibly from its project\'s failed restore';

export function renderDiagnostics(result: DiagnosticsResult): string {
  const lines: string[] = [...resolvedFileLines(result), ...caveatLines(result)];
  let shown = 0;
  if (result.summary) {
    for (const line of result.summary) {
      const tags = [...(line.restoreFailed ? [restoreTag] : []), ...(line.excludedGenerator ? [generatorTag(line.excludedGenerator)] : [])];
      const possibly = tags.length ? ` (${tags.join('; ')})` : '';
      lines.push(`${line.id} x${line.count} ${line.severity} ${line.example.path}:${line.example.line}:${line.example.character} ${line.message}${possibly}`);
    }
  } else {
    let file: string | undefined;
    let bytes = 0;
    // The generators are named in full once; the next errors they may explain say "as above".
    let named: string | undefined;
    for (const diagnostic of result.diagnostics ?? []) {
      const block: string[] = [];
      // Those an excluded generator may explain follow the ones that stand, so a file can come back: name it again.
      if (diagnostic.path !== file) block.push(diagnostic.path);
      const partial = diagnostic.partialType ? `; it may complete partial ${diagnostic.partialType}` : '';
      const generators = diagnostic.excludedGenerator;
      const fromGenerator = !generators ? '' : generators === named ? `possibly from the excluded generator, as above${partial}` : `${generatorTag(generators)}${partial}`;
      const tags = [...(diagnostic.restoreFailed ? [restoreTag] : []), ...(fromGenerator ? [fromGenerator] : [])];
      const possibly = tags.length ? ` (${tags.join('; ')})` : '';
      block.push(`  ${diagnostic.line}:${diagnostic.character} ${diagnostic.severity} ${diagnostic.id} ${diagnostic.message}${possibly}`);
      const size = Buffer.byteLength(block.join('\n')) + 1;
      if (shown > 0 && bytes + size > resultLinesBudget) break;
      bytes += size;
      lines.push(...block);
      file = diagnostic.path;
      if (generators) named = generators;
      shown++;
    }
  }
  const below = result.belowSeverity ? `, ${result.belowSeverity} below the severity` : '';
  const apart = [
    ...(result.possiblyFromFailedRestores ? [`${result.possiblyFromFailedRestores} possibly from failed restores`] : []),
    ...(result.possiblyFromExcludedGenerators ? [`${result.possiblyFromExcludedGenerators} possibly from excluded generators`] : []),
  ];
  const possibly = apart.length ? ` (${apart.join(', ')}, listed last: a build may not have them)` : '';
  lines.push(`${plural(result.filesChecked, 'file')} checked, ${plural(result.total, 'diagnostic')}${possibly} in ${plural(result.filesWithDiagnostics, 'file')}${below}${result.filteredByIds ? ', filtered by ids' : ''}`);
  if (result.incomplete.length) {
    const more = result.incomplete.length > incompleteNamed ? `, +${result.incomplete.length - incompleteNamed} more` : '';
    lines.push(`incomplete: ${plural(result.incomplete.length, 'file')} in no project, so no semantic diagnostics: ${result.incomplete.slice(0, incompleteNamed).join(', ')}${more}`);
  }
  lines.push(...excludedAnalyzersLine(result.excludedAnalyzers ?? [], result.projects.map((project) => project.project)));
  const cutToFit = !result.summary && shown < (result.diagnostics ?? []).length;
  if (cutToFit) {
    lines.push(`truncated: ${shown} of ${plural(result.total, 'diagnostic')} shown to stay under 8 KB, next offset: ${result.offset + shown}. Narrow the query (file, project, ids, summary) or page on.`);
  } else if (result.truncated && result.nextOffset !== null) {
    lines.push(`truncated: ${result.summary ? `${result.summary.length} codes shown of more` : plural(result.total, 'diagnostic')} in total, next offset: ${result.nextOffset}. Raise limit or narrow the query.`);
  }
  return lines.join('\n');
}

export const DiagnosticsInputSchema = z
  .strictObject({
    project: z.string().min(1).optional().describe('Only this project (name or workspace-relative path).'),
    file: z.string().min(1).max(1024).optional().describe(`A file (workspace-relative path or unique suffix such as Calculator.cs) or a glob (src/**/*.cs): ${globDialect}. Default: every C# file.`),
    path: z.string().min(1).max(1024).optional().describe('Alias of file.'),
    severity: z.enum(diagnosticSeverities).optional().describe('Lowest severity to report. Default warning, or diagnostics.defaultSeverity of .sharpclaw/settings.jsonc.'),
    ids: z.array(z.string().min(1)).min(1).optional().describe('Only these codes (case-insensitive, before severity), e.g. ["CS0246"].'),
    summary: z.boolean().optional().describe('One line per code (count, severity, one example) instead of one per diagnostic.'),
    ...pagingArguments('results', Bounds.diagnosticsLimit),
    ...workspaceSelection,
  })
  .refine((input) => input.path === undefined || input.file === undefined || input.path === input.file, { message: 'Give file or path, not both.' });


export const diagnosticsTool = hostTool({
  name: 'csharp_diagnostics',
  mcpName: 'diagnostics',
  displayName: 'C# diagnostics',
  referenceName: 'csharpDiagnostics',
  userDescription: 'Compiler and SDK analyzer errors and warnings, by file, project, code or severity.',
  modelDescription:
    `Get C# compiler and .NET SDK analyzer/generator diagnostics without building: for the workspace, a project, a file or a glob as file. Sorted by file and position, with a totals line; paged with offset. The first call loads the solution with MSBuild, which needs the user's approval.`,
  tags: ['csharp', 'roslyn', 'diagnostics'],
  input: DiagnosticsInputSchema,
  method: Methods.diagnostics,
  // file is the bridge spec's name; the host's param is path.
  params: ({ file, ...input }, context) => ({ ...input, ...(file !== undefined ? { path: file } : {}), severity: input.severity ?? loadDiagnosticsDefaultSeverity(context.workspaceFolder) }),
  render: renderDiagnostics,
});
