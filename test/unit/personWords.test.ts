// Words a person reads (toasts, the sidebar, the Output channel) are made from what agents get:
// host log lines at their own level, typed rejections as one line, one-sentence messages without
// agent hints, report summaries without raw enum values, "you, via …" for the person's commands.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { describeRequester } from '../../src/surfaces/vscode/approvals/requester';
import { ExtensionLog } from '../../src/surfaces/vscode/logging/extensionLog';
import { classifyHostLine } from '../../src/surfaces/vscode/logging/hostLogLines';
import { firstSentence, personErrorMessage } from '../../src/surfaces/vscode/messages/personText';
import { reportSentence, statusWord } from '../../src/surfaces/vscode/messages/reportText';
import type { VerificationReport } from '../../src/engine/verification/report';

/** A LogOutputChannel that records calls and, like VS Code's, throws once disposed. */
function recordingChannel(): { channel: vscode.LogOutputChannel; calls: string[] } {
  const calls: string[] = [];
  let closed = false;
  const write = (level: string) => (message: string) => {
    if (closed) throw new Error('Channel has been closed');
    calls.push(`${level} ${message}`);
  };
  const channel = {
    name: 'SharpClaw',
    logLevel: 2,
    trace: write('trace'),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    append: write('append'),
    appendLine: write('appendLine'),
    replace: write('replace'),
    clear: () => undefined,
    show: () => undefined,
    hide: () => undefined,
    dispose: () => {
      closed = true;
    },
  } as unknown as vscode.LogOutputChannel;
  return { channel, calls };
}

describe('the SharpClaw log channel', () => {
  it('shows host lines at the host\'s level with one timestamp (the channel\'s), not all as errors', () => {
    const { channel, calls } = recordingChannel();
    const log = new ExtensionLog(channel);
    const client = log.hostChannel();
    // vscode-languageclient logs every stderr line of the host with error().
    client.error('2026-12-01T09:33:38.456Z [debug] request initialize #2 ok in 66.1 ms');
    client.error('2026-12-01T09:33:38.460Z [info ] Loaded Calculator.slnx [Debug]: 3 projects in 5230 ms');
    client.error('2026-12-01T09:33:38.500Z [warn ] Cannot open a log file');
    client.error('2026-12-01T09:33:38.600Z [error] The host failed');
    client.error('   at Something.Else()');
    assert.deepEqual(calls, ['debug request initialize #2 ok in 66.1 ms', 'info Loaded Calculator.slnx [Debug]: 3 projects in 5230 ms', 'warn Cannot open a log file', 'error The host failed', 'error    at Something.Else()']);
    assert.deepEqual(log.recent().map((line) => line.level), ['debug', 'info', 'warn', 'error', 'error']);
  });

  it('logs a typed rejection the client reports as one debug line, without its payload (the caller already has it)', () => {
    const line = classifyHostLine("Request sharpclaw/edit failed.\n  Message: Renaming Calculator.Add to Subtract would introduce 1 compiler error(s); nothing was changed.\n  Code: -32001 \n[object Object]");
    assert.deepEqual(line, { level: 'debug', message: 'sharpclaw/edit rejected: Renaming Calculator.Add to Subtract would introduce 1 compiler error(s); nothing was changed.' });
    // Other failures stay errors.
    assert.equal(classifyHostLine('Request sharpclaw/status failed.\n  Message: boom\n  Code: -32603 ', 'info', 'error').level, 'error');
  });

  it('drops writes after it is disposed instead of throwing "Channel has been closed"', () => {
    const { channel, calls } = recordingChannel();
    const log = new ExtensionLog(channel);
    const client = log.hostChannel();
    const trace = new ExtensionLog(recordingChannel().channel).guardedChannel();
    log.info('before');
    log.dispose();
    // The host stops after the window closed: the client and SharpClaw still log.
    assert.doesNotThrow(() => {
      log.info('after');
      log.error('after');
      client.error('2026-12-01T09:33:38.456Z [info ] request shutdown #9 ok');
      client.appendLine('after');
      client.dispose();
      trace.appendLine('trace line');
    });
    assert.deepEqual(calls, ['info before']);
  });
});

describe('words for people', () => {
  it('names the person\'s own command as theirs, and an agent\'s tool as the agent\'s', () => {
    assert.equal(describeRequester('SharpClaw: Load Workspace'), 'you, via SharpClaw: Load Workspace');
    assert.equal(describeRequester('dotnet_solution_inspect'), 'an agent, via the tool dotnet_solution_inspect');
  });

  it('keeps one sentence of an error and drops hints meant for agents', () => {
    assert.equal(
      firstSentence("The type Calculator has no member 'Sum' and no member with a similar name. List its members with the members action."),
      "The type Calculator has no member 'Sum' and no member with a similar name.",
    );
    assert.equal(firstSentence('Renaming Calculator.Add to Sum would introduce 2 compiler error(s); nothing was changed.\n  src/A.cs:3:5 error CS0103 …'), 'Renaming Calculator.Add to Sum would introduce 2 compiler error(s); nothing was changed.');
    assert.equal(
      personErrorMessage('did not rename', { code: 'rename_conflict', message: "'Calculator' already defines 'Subtract'; renaming Calculator.Add(double, double) to Subtract would collide with it, so nothing was changed." }),
      "SharpClaw did not rename: 'Calculator' already defines 'Subtract'; renaming Calculator.Add(double, double) to Subtract would collide with it, so nothing was changed.",
    );
  });

  const report = (overrides: Partial<VerificationReport>): VerificationReport =>
    ({
      schemaVersion: 1,
      status: 'failed',
      summary: 'failed: …',
      scope: 'affected',
      workspaceFolder: '/ws',
      target: 'FailingTest.slnx',
      configuration: 'Debug',
      framework: null,
      restore: false,
      timeoutSeconds: 600,
      startedAt: '2026-12-01T09:00:00.000Z',
      finishedAt: '2026-12-01T09:00:10.000Z',
      durationMs: 10_000,
      lockWaitMs: 0,
      selection: null,
      prerequisites: [],
      steps: [],
      build: { status: 'passed', reason: null, errors: 0, warnings: 1, diagnostics: [], omittedDiagnostics: 0 },
      tests: null,
      notes: [],
      ...overrides,
    }) as VerificationReport;

  it('summarizes a report without raw enum values or "1 errors"', () => {
    const failedTests = {
      status: 'failed',
      reason: null,
      counters: { total: 4, executed: 4, passed: 3, failed: 1, skipped: 0, other: 0 },
      projects: [],
      failedTests: [{ name: 'Pricing.Tests.DiscountTests.OrdersOfExactlyOneHundredGetTheDiscount', outcome: 'Failed', message: 'Assert.Equal() Failure', stackTrace: '', project: 'tests/Pricing.Tests/Pricing.Tests.csproj', framework: 'net10.0' }],
      omittedFailedTests: 0,
      resultsDirectory: null,
    } as unknown as VerificationReport['tests'];
    assert.equal(reportSentence(report({ tests: failedTests })), 'Verify Affected failed: build passed with 1 warning; 3 tests passed, 1 failed (OrdersOfExactlyOneHundredGetTheDiscount).');
    const notRun = { status: 'notRun', reason: 'The build failed, so no tests ran.', counters: { total: 0, executed: 0, passed: 0, failed: 0, skipped: 0, other: 0 }, projects: [], failedTests: [], omittedFailedTests: 0, resultsDirectory: null } as unknown as VerificationReport['tests'];
    const sentence = reportSentence(report({ scope: 'all', build: { status: 'failed', reason: null, errors: 1, warnings: 0, diagnostics: [], omittedDiagnostics: 0 }, tests: notRun }));
    assert.equal(sentence, 'Verify All failed: build failed with 1 error; tests not run.');
    assert.doesNotMatch(sentence, /notRun|1 errors|error\(s\)/);
    assert.equal(statusWord('missingPrerequisites'), 'prerequisites missing');
    assert.equal(statusWord('timedOut'), 'timed out');
  });

  it('says a denied verification did not run, in one sentence', () => {
    assert.equal(
      reportSentence(report({ status: 'denied', build: null, notes: ['You denied SharpClaw permission to build and test FailingTest.slnx with dotnet (scope affected, Debug).'] })),
      'Verify Affected did not run: You denied SharpClaw permission to build and test FailingTest.slnx with dotnet (scope affected, Debug).',
    );
  });
});
