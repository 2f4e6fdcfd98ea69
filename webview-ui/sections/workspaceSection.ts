// What the last Load Workspace gave: the solution, each project with its frameworks (and
// whether it is a test project), what was excluded or failed, and what agents can ask now.
import { button, element, pathText, section, text } from '../dom';
import type { WorkspaceView } from './emptyState';

export function workspaceSection(workspace: WorkspaceView | undefined): HTMLElement | undefined {
  const load = workspace?.load;
  if (!load) return undefined;
  const result = load.result;
  const body: Node[] = [
    element('p', {
      text: `${result.target} · ${result.configuration}${result.targetFramework ? ` · ${result.targetFramework}` : ''} · ${result.projects.length} project${result.projects.length === 1 ? '' : 's'}${result.fromCache ? ' (already loaded)' : ''}`,
      attrs: { 'data-testid': 'load-summary' },
    }),
    element(
      'ul',
      { className: 'plain indent', attrs: { 'data-testid': 'loaded-projects' } },
      ...result.projects.map((project) => {
        const frameworks = project.targetFrameworks.join(', ') || 'no target framework';
        const loaded = project.compilations.filter((c) => c.loaded).map((c) => c.targetFramework).filter(Boolean);
        const usedNote = project.targetFrameworks.length > 1 && loaded.length ? ` (loaded: ${loaded.join(', ')})` : '';
        return element('li', {}, pathText(project.path), text(` — ${frameworks}${usedNote}${project.isTestProject ? ' · tests' : ''}`));
      }),
    ),
  ];
  const excluded: string[] = [
    ...result.partialLoad.map((issue) => `${issue.path} did not load: ${issue.reason}`),
    ...result.excludedAnalyzers.map((entry) => `${entry.project}: ${entry.analyzers.length} analyzer${entry.analyzers.length === 1 ? '' : 's'} not run (${entry.analyzers.map((a) => a.name).join(', ')})`),
    ...result.loadWarnings.map((issue) => `${issue.path}: ${issue.reason}`),
  ];
  body.push(
    element('h3', { text: excluded.length ? 'Excluded or with problems' : 'Nothing excluded' }),
    ...(excluded.length ? [element('ul', { className: 'plain indent', attrs: { 'data-testid': 'load-excluded' } }, ...excluded.map((text) => element('li', { text })))] : []),
    element('h3', { text: 'Agents can now ask' }),
    element(
      'ul',
      { className: 'plain indent', attrs: { 'data-testid': 'agent-tools' } },
      ...(workspace?.agentTools ?? []).map((tool) => element('li', { text: tool.displayName, attrs: { title: tool.name } })),
    ),
    element('p', { text: `Loaded at ${new Date(load.at).toLocaleTimeString()}.`, className: 'muted' }),
    element('div', { className: 'actions' }, button('Load again', { type: 'runCommand', command: 'sharpclaw.loadWorkspace' }, 'Load the solution again (asks before MSBuild runs project code)', 'secondary')),
  );
  return section('Workspace', 'workspace-section', ...body);
}
