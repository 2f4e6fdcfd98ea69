// A verification report: verdict, selection, steps with a duration bar chart, diagnostics
// grouped by file (click to open), failed tests with message and stack (source links), and
// every skipped or missing section spelled out with its reason.
import type { Diagnostic, FailedTest, Step, VerificationReport } from '../../src/engine/verification/report';
import { buildWords, reportSentence, scopeTitle, statusWord, testWords } from '../../src/surfaces/vscode/messages/reportText';
import { element, pathText, section, text, vscode } from '../dom';

function badge(status: string, kind: 'ok' | 'bad' | 'neutral'): HTMLElement {
  return element('span', { text: status, className: `badge verdict-${kind}` });
}

const verdictKind = (status: string): 'ok' | 'bad' | 'neutral' => (status === 'passed' ? 'ok' : ['failed', 'timedOut', 'cancelled', 'denied', 'missingPrerequisites'].includes(status) ? 'bad' : 'neutral');

function relative(report: VerificationReport, file: string): string {
  const root = report.workspaceFolder.endsWith('/') ? report.workspaceFolder : `${report.workspaceFolder}/`;
  return file.startsWith(root) ? file.slice(root.length) : file;
}

function locationLink(label: string, file: string, line: number, column?: number): HTMLElement {
  const link = element('a', { text: label, attrs: { href: '#', role: 'link', title: `Open ${file}:${line}` } });
  link.addEventListener('click', (event) => {
    event.preventDefault();
    vscode.postMessage({ type: 'openLocation', file, line, ...(column ? { column } : {}) });
  });
  return link;
}

function stepsChart(steps: readonly Step[]): HTMLElement {
  const longest = Math.max(1, ...steps.map((step) => step.durationMs));
  const rows = steps.map((step) => {
    const bar = element('div', { className: `bar-fill ${step.outcome === 'exited' && step.exitCode === 0 ? 'ok' : 'bad'}` });
    bar.style.width = `${Math.max(2, Math.round((100 * step.durationMs) / longest))}%`;
    const exit = step.outcome === 'exited' ? `exit ${step.exitCode}` : statusWord(step.outcome);
    return element(
      'li',
      { attrs: { title: step.commandLine } },
      element('div', { className: 'step-line' }, element('span', { text: `${step.kind} ${step.target}` }), element('span', { text: `${exit} · ${(step.durationMs / 1000).toFixed(1)} s`, className: 'muted' })),
      element('div', { className: 'bar', attrs: { 'aria-hidden': 'true' } }, bar),
    );
  });
  return element('ul', { className: 'plain steps', attrs: { 'data-testid': 'steps' } }, ...rows);
}

function diagnosticsByFile(report: VerificationReport, diagnostics: readonly Diagnostic[]): HTMLElement {
  const groups = new Map<string, Diagnostic[]>();
  for (const diagnostic of diagnostics) {
    const key = diagnostic.file ?? '(no file)';
    groups.set(key, [...(groups.get(key) ?? []), diagnostic]);
  }
  const blocks = [...groups.entries()].map(([file, items]) =>
    element(
      'li',
      {},
      element('div', { className: 'file' }, file === '(no file)' ? document.createTextNode(file) : pathText(relative(report, file))),
      element(
        'ul',
        { className: 'plain indent' },
        ...items.map((d) => {
          const where = d.line ? `${d.line}:${d.column ?? 1}` : '';
          const text = `${d.severity} ${d.code ?? ''} ${d.message}`.replace(/\s+/g, ' ').trim();
          const label = where ? locationLink(where, file, d.line!, d.column ?? undefined) : element('span', { text: '—' });
          return element('li', { className: `diag diag-${d.severity}`, attrs: { 'data-testid': 'diagnostic' } }, label, document.createTextNode(` ${text}`));
        }),
      ),
    ),
  );
  return element('ul', { className: 'plain' }, ...blocks);
}

/** Turns "in /path/File.cs:line 12" frames into links. */
function stackWithLinks(stack: string): HTMLElement {
  const pre = element('pre', { className: 'stack' });
  for (const line of stack.split('\n')) {
    const match = / in (.+\.cs):line (\d+)/.exec(line);
    if (match) {
      pre.append(document.createTextNode(line.slice(0, match.index + 4)), locationLink(`${match[1]}:line ${match[2]}`, match[1]!, Number(match[2])), document.createTextNode('\n'));
    } else {
      pre.append(document.createTextNode(`${line}\n`));
    }
  }
  return pre;
}

function failedTest(test: FailedTest): HTMLElement {
  return element(
    'li',
    { className: 'failed-test', attrs: { 'data-testid': 'failed-test' } },
    element('div', { text: test.name, className: 'test-name' }),
    element('div', { text: `${test.project} · ${test.framework} · ${test.outcome.toLowerCase()}`, className: 'muted' }),
    element('div', { text: test.message, className: 'error' }),
    ...(test.stackTrace ? [stackWithLinks(test.stackTrace)] : []),
  );
}

export function reportSection(report: VerificationReport, history: readonly VerificationReport[], select: (index: number) => void, top: readonly HTMLElement[] = []): HTMLElement {
  const body: Node[] = [
    ...top,
    element('div', { className: 'heading' }, badge(statusWord(report.status), verdictKind(report.status)), element('span', { text: `${scopeTitle[report.scope]} · ${report.target ?? 'no target'} · ${report.configuration}${report.framework ? ` · ${report.framework}` : ''}` })),
    element('p', { text: reportSentence(report), attrs: { 'data-testid': 'report-summary', title: report.summary } }),
    element('p', { text: `${new Date(report.startedAt).toLocaleTimeString()} · ${(report.durationMs / 1000).toFixed(1)} s${report.lockWaitMs > 500 ? ` (waited ${(report.lockWaitMs / 1000).toFixed(1)} s for another verification)` : ''}`, className: 'muted' }),
  ];
  for (const prerequisite of report.prerequisites) {
    body.push(element('p', { text: `Missing: ${prerequisite.message}${prerequisite.command ? ` Run: ${prerequisite.command}` : ''}`, className: 'error', attrs: { role: 'alert' } }));
  }
  if (report.selection) {
    const selected = report.selection.projects.map((project) => element('li', {}, pathText(project.path), text(project.reasons.length ? ` — ${project.reasons.join('; ')}` : '')));
    body.push(element('h3', { text: `Projects (${report.selection.projects.length}${report.selection.wholeTarget ? ', whole target' : ''})` }), element('p', { text: report.selection.reason, className: 'muted' }), element('ul', { className: 'plain indent' }, ...selected));
  }
  if (report.steps.length) body.push(element('h3', { text: 'Steps' }), stepsChart(report.steps));
  if (report.build) {
    const build = buildWords(report.build);
    body.push(element('h3', { text: `${build.charAt(0).toUpperCase()}${build.slice(1)}` }));
    if (report.build.reason) body.push(element('p', { text: report.build.reason, className: 'muted' }));
    if (report.build.diagnostics.length) body.push(diagnosticsByFile(report, report.build.diagnostics));
    if (report.build.omittedDiagnostics) body.push(element('p', { text: `${report.build.omittedDiagnostics} more diagnostics not shown.`, className: 'muted' }));
  }
  if (report.tests) {
    const words = testWords(report.tests);
    body.push(element('h3', { text: `${words.charAt(0).toUpperCase()}${words.slice(1)}` }));
    if (report.tests.reason) body.push(element('p', { text: report.tests.reason, className: report.tests.status === 'skipped' ? 'muted' : 'error', attrs: { 'data-testid': 'tests-reason' } }));
    for (const project of report.tests.projects.filter((p) => p.reason)) body.push(element('p', { text: `${project.project}: ${statusWord(project.status)} — ${project.reason}`, className: 'muted' }));
    if (report.tests.failedTests.length) body.push(element('ul', { className: 'plain' }, ...report.tests.failedTests.map(failedTest)));
    if (report.tests.omittedFailedTests) body.push(element('p', { text: `${report.tests.omittedFailedTests} more failed tests not shown.`, className: 'muted' }));
  }
  const sentence = reportSentence(report);
  // A note the summary sentence already says is not repeated.
  for (const note of report.notes.filter((text) => !sentence.includes(text.replace(/\.$/, '')))) body.push(element('p', { text: note, className: 'muted' }));
  if (history.length > 1) {
    body.push(
      element('h3', { text: 'Recent reports' }),
      element(
        'ul',
        { className: 'plain' },
        ...history.map((entry, index) => {
          const choose = element('button', { text: `${new Date(entry.startedAt).toLocaleTimeString()} ${scopeTitle[entry.scope]}: ${statusWord(entry.status)}`, className: entry === report ? 'secondary current' : 'secondary', attrs: { type: 'button' } });
          choose.addEventListener('click', () => select(index));
          return element('li', {}, choose);
        }),
      ),
    );
  }
  return section('Verification', 'report-section', ...body);
}
