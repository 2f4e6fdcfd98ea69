// The agent's verify_workspace runs the dotnet the person configured (sharpclaw.dotnetPath, passed
// as ToolContext.dotnetPath), like the palette's Verify commands. A configured path that does not
// exist must show up in the report, proving it was the one started (no dotnet needed).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ToolContext } from '../../src/engine/tools/toolDefinition';
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
    const context: ToolContext = {
      workspaceFolder: path.resolve(__dirname, '..', '..', '..', 'fixtures', 'VerificationSlow'),
      permissions: { request: async () => ({ granted: true, source: 'policy' }) },
      // No dotnet in this layer: the host's answer to sharpclaw/resolveTarget (files only) is given here.
      host: {
        request: async (method, _params, schema) => {
          assert.equal(method, 'sharpclaw/resolveTarget', 'only the target is asked before the SDK check');
          return schema.parse(ResolveTargetResultSchema.parse({ workspace: '/w', target: 'Slow/Slow.csproj', kind: 'project', projects: ['Slow/Slow.csproj'] }));
        },
      },
      surface: 'vscode',
      signal: new AbortController().signal,
      progress: () => undefined,
      dotnetPath: configured,
    };
    const report = await verifyWorkspaceTool.invoke({ scope: 'build', target: 'Slow/Slow.csproj' }, context);
    assert.equal(report.status, 'missingPrerequisites', report.summary);
    assert.ok(report.steps[0]?.commandLine.startsWith(configured), report.steps[0]?.commandLine);
    assert.match(verifyWorkspaceTool.render(report), new RegExp(configured.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  });
});
