// The foundation, checked in a real extension host: lazy activation, the Roslyn host's status
// round trip, the sidebar, and recovery after the host is killed.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HostStatus } from '../../src/engine/protocol/hostStatus';
import { api, descendantsOf, extension, isAlive, openSidebarForHostStatus, screenshot, waitFor } from './support';

const dotnetChildren = () => descendantsOf(process.pid).filter((p) => /(^|\/)dotnet(\s|$)/.test(p.command) || p.command.includes('SharpClaw.Server'));

describe('SharpClaw in a real VS Code extension host', () => {
  it('activates lazily and starts no dotnet process on activation', async () => {
    const ext = extension();
    assert.equal(ext.isActive, false, 'nothing should have activated SharpClaw before a SharpClaw command or view was used');
    const sharpclaw = await ext.activate();
    assert.ok(sharpclaw.activationMs >= 0 && sharpclaw.activationMs < 1000, `activation took ${sharpclaw.activationMs} ms`);
    assert.equal(sharpclaw.hostState().kind, 'stopped');
    assert.deepEqual(dotnetChildren(), [], 'activation must not start the Roslyn host or any dotnet process');
    assert.match(sharpclaw.statusBarText(), /SharpClaw/);
    console.log(`    VS Code ${vscode.version}; activation ${sharpclaw.activationMs.toFixed(1)} ms`);
  });

  it('round-trips sharpclaw/status through the real host process', async () => {
    const sharpclaw = await api();
    const status = (await vscode.commands.executeCommand<HostStatus>('sharpclaw.showHostStatus'))!;
    assert.ok(status, 'the command returned no status; see the SharpClaw log');
    assert.match(status.roslynVersion, /^5\.\d+/);
    assert.match(status.runtime.frameworkDescription, /\.NET \d+/);
    assert.ok(status.sdks.length > 0, 'the host sees no .NET SDK');
    assert.deepEqual(status.loadedContexts, []);
    assert.equal(status.clientProcessId, process.pid, 'the host should watch this extension host');
    const host = dotnetChildren().find((p) => p.pid === status.processId);
    assert.ok(host, `pid ${status.processId} is not a child process of this extension host`);
    assert.match(host.command, /SharpClaw\.Server\.dll/);
    assert.equal(sharpclaw.hostState().kind, 'ready');
    assert.match(sharpclaw.statusBarText(), /\$\(check\) SharpClaw/);
  });

  it('shows the live host status in the sidebar', async () => {
    const sharpclaw = await api();
    assert.equal(await openSidebarForHostStatus(sharpclaw), 'hostStatus', 'the sidebar rendered an error instead of the host status');
    await screenshot('sidebar');
  });

  it('keeps the sidebar readable in light, dark and high-contrast themes (screenshots)', async () => {
    const workbench = vscode.workspace.getConfiguration('workbench');
    const original = workbench.inspect<string>('colorTheme')?.globalValue;
    try {
      for (const [name, theme] of [['light', 'Default Light Modern'], ['dark', 'Default Dark Modern'], ['high-contrast', 'Default High Contrast']] as const) {
        await workbench.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
        await waitFor(`the ${theme} theme`, () => vscode.window.activeColorTheme.kind === { light: vscode.ColorThemeKind.Light, dark: vscode.ColorThemeKind.Dark, 'high-contrast': vscode.ColorThemeKind.HighContrast }[name]);
        await screenshot(`sidebar-${name}`);
      }
    } finally {
      await workbench.update('colorTheme', original, vscode.ConfigurationTarget.Global);
    }
  });

  it('notices a killed host, reports it, and starts a new one on the next request', async () => {
    const sharpclaw = await api();
    const before = await sharpclaw.hostStatus();
    process.kill(before.processId, 'SIGKILL');
    await waitFor('the crashed state', () => sharpclaw.hostState().kind === 'crashed');
    assert.match(sharpclaw.statusBarText(), /host crashed/);
    const logged = sharpclaw.recentLog().find((line) => line.level === 'error' && line.message.includes(`pid ${before.processId}`));
    assert.ok(logged, 'the crash was not written to the SharpClaw log');
    assert.match(logged.message, /killed by SIGKILL unexpectedly/);
    const after = await sharpclaw.hostStatus();
    assert.notEqual(after.processId, before.processId);
    assert.ok(isAlive(after.processId));
    assert.equal(sharpclaw.hostState().kind, 'ready');
  });

  it('stops restarting a host that keeps crashing, until the user restarts it', async () => {
    const sharpclaw = await api();
    await vscode.commands.executeCommand('sharpclaw.restartHost'); // forgets earlier crashes
    for (let crash = 1; crash <= 3; crash++) {
      const status = await sharpclaw.hostStatus();
      process.kill(status.processId, 'SIGKILL');
      await waitFor(`crash ${crash} to be noticed`, () => ['crashed', 'failed'].includes(sharpclaw.hostState().kind));
    }
    assert.equal(sharpclaw.hostState().kind, 'failed');
    await assert.rejects(sharpclaw.hostStatus(), /Restart Host/);
    assert.match(sharpclaw.statusBarText(), /host down/);
    const restarted = await vscode.commands.executeCommand<HostStatus>('sharpclaw.restartHost');
    assert.ok(restarted && isAlive(restarted.processId));
    assert.equal(sharpclaw.hostState().kind, 'ready');
  });

  it('reports an invalid verification setting with its key, value and valid range', async () => {
    const sharpclaw = await api();
    const settings = vscode.workspace.getConfiguration('sharpclaw.verification');
    try {
      await settings.update('maxRepairIterations', 9, vscode.ConfigurationTarget.Global);
      const line = await waitFor('the settings error in the log', () =>
        sharpclaw.recentLog().find((entry) => entry.level === 'error' && entry.message.includes('sharpclaw.verification.maxRepairIterations')),
      );
      assert.equal(line.message, 'Invalid setting sharpclaw.verification.maxRepairIterations = 9 in user settings: expected a whole number from 0 to 5.');
    } finally {
      await settings.update('maxRepairIterations', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('pushes the new host\'s status to the open sidebar after Restart Host, without Refresh', async () => {
    const sharpclaw = await api();
    await vscode.commands.executeCommand('sharpclaw.openSidebar');
    // Let any render that opening the sidebar caused finish first, so only a pushed one counts: go on
    // once the sidebar has been quiet for a second.
    let lastRender = Date.now();
    const quiet = sharpclaw.onDidRenderSidebar(() => { lastRender = Date.now(); });
    await waitFor('the sidebar to be quiet for a second', () => Date.now() - lastRender >= 1000, 30_000);
    quiet.dispose();
    const rendered = new Promise<string>((resolve) => {
      const subscription = sharpclaw.onDidRenderSidebar((message) => {
        if (message.what !== 'hostStatus') return;
        subscription.dispose();
        resolve(message.what);
      });
    });
    const restarted = await vscode.commands.executeCommand<HostStatus>('sharpclaw.restartHost');
    assert.ok(restarted);
    // Restart Host itself asks the host for its status; the sidebar must get the new one on its own.
    const what = await Promise.race([rendered, new Promise<string>((_, reject) => setTimeout(() => reject(new Error('the sidebar did not show the restarted host within 30 s')), 30_000))]);
    assert.equal(what, 'hostStatus');
  });

  it('stops the host cleanly on request', async () => {
    const sharpclaw = await api();
    const status = await sharpclaw.hostStatus();
    await vscode.commands.executeCommand('sharpclaw.stopHost');
    await waitFor('the host process to exit', () => !isAlive(status.processId), 10_000);
    assert.equal(sharpclaw.hostState().kind, 'stopped');
    const lines = sharpclaw.recentLog().map((line) => line.message);
    assert.ok(
      lines.some((line) => line.includes(`pid ${status.processId}) exited with code 0 after a stop request`)),
      `no clean exit logged for pid ${status.processId}:\n${lines.slice(-8).join('\n')}`,
    );
  });
});
