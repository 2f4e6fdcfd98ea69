// The agent's verify_workspace runs the dotnet the person configured (sharpclaw.dotnetPath, the
// Session's dotnetPath option: Session.verify uses it), like the palette's Verify commands. A configured path that does not
// exist must show up in the report, proving it was the one started (no dotnet needed).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HostConnection, HostTransport } from '../../src/engine/host/hostTransport';
import { Session } from '../../src/engine/session';
import { verifyWorkspaceTool } from '../../src/engine/tools/verifyWorkspace/verifyWorkspaceTool';
import { ResolveTargetResultSchema } from '../../src/engine/protocol/semantic';

describe('verify_workspace and the configured dotnet', () => {
  const saved = process.env.SHARPCLAW_STATE_DIR;
  let stateRoot: string;
  before(() => {
    stateRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-verify-dotnet-'));
    process.env.SHARPCLAW_STATE_DIR = stateRoot;
  });
  after(() => {
    if (saved === undefined) delete process.env.SHARPCLAW_STATE_DIR;
    else process.env.SHARPCLAW_STATE_DIR = saved;
    fs.rmSync(stateRoot, { recursive: true, force: true });
  });

  it('starts sharpclaw.dotnetPath, not the dotnet on PATH', async () => {
    const configured = path.join(stateRoot, 'no-such-sdk', 'dotnet');
    // No dotnet in this layer: the host's answer to sharpclaw/resolveTarget (files only) is given here.
    const asked: string[] = [];
    const connection: HostConnection = {
      pid: 1,
      logFile: '/dev/null',
      sendRequest: async (method) => {
        if (method === 'sharpclaw/status') return { hostVersion: '1.0.0', roslynVersion: '5.0.0', runtime: { frameworkDescription: '.NET 10.0.0', runtimeIdentifier: 'linux-x64', dotnetRoot: null }, sdks: [], loadedContexts: [], processId: 1, clientProcessId: null, startedAt: '2026-01-01T00:00:00Z', logFile: null };
        asked.push(method);
        if (method !== 'sharpclaw/resolveTarget') throw new Error(`not answered here: ${method}`);
        return ResolveTargetResultSchema.parse({ workspace: '/w', target: 'Slow/Slow.csproj', kind: 'project', projects: ['Slow/Slow.csproj'] });
      },
      onExit: () => undefined,
      stop: async () => undefined,
    };
    const transport: HostTransport = { start: async () => connection };
    const session = new Session({
      surface: 'vscode',
      workspaceFolder: () => path.resolve(__dirname, '..', '..', '..', 'fixtures', 'VerificationSlow'),
      permissions: { request: async () => ({ granted: true, source: 'policy' }) },
      transport,
      dotnetPath: () => configured,
      home: stateRoot,
    });
    const outcome = await session.runTool(verifyWorkspaceTool, { scope: 'build', target: 'Slow/Slow.csproj' }, new AbortController().signal);
    session.dispose();
    // The evaluation is asked beside the SDK check (issue 39); this layer's host cannot answer it, and the
    // SDK check's missing prerequisite is what the report says, not the evaluation's error.
    assert.deepEqual(asked.filter((method) => method !== 'sharpclaw/interruptedEdits'), ['sharpclaw/resolveTarget', 'sharpclaw/projectGraph'], 'the target first, then the evaluation beside the SDK check');
    assert.ok(outcome.ok);
    const report = outcome.data as Awaited<ReturnType<typeof verifyWorkspaceTool.invoke>>;
    assert.equal(report.status, 'missingPrerequisites', report.summary);
    assert.ok(report.steps[0]?.commandLine.startsWith(configured), report.steps[0]?.commandLine);
    assert.match(verifyWorkspaceTool.render(report), new RegExp(configured.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  });
});
