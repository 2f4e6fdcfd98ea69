import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compareVersions, DotnetNotFoundError, listSdkVersions, locateDotnet } from '../../src/engine/host/dotnetLocator';

/** A dotnet root on disk with the given SDK folders (each with the dotnet.dll that marks an SDK) and runtimes. */
function fakeDotnetRoot(sdks: string[], runtimes = ['10.0.1']): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-dotnet-'));
  fs.writeFileSync(path.join(root, 'dotnet'), '#!/bin/sh\n', { mode: 0o755 });
  for (const sdk of sdks) {
    fs.mkdirSync(path.join(root, 'sdk', sdk), { recursive: true });
    fs.writeFileSync(path.join(root, 'sdk', sdk, 'dotnet.dll'), '');
  }
  for (const runtime of runtimes) fs.mkdirSync(path.join(root, 'shared', 'Microsoft.NETCore.App', runtime), { recursive: true });
  return root;
}

describe('locating dotnet without running it', () => {
  const created: string[] = [];
  const root = (sdks: string[], runtimes?: string[]) => {
    const dir = fakeDotnetRoot(sdks, runtimes);
    created.push(dir);
    return dir;
  };
  after(() => created.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('orders versions numerically, pre-releases first', () => {
    const sorted = ['10.0.100', '8.0.400', '10.0.100-rc.2', '9.0.101', '8.0.4'].sort(compareVersions);
    assert.deepEqual(sorted, ['8.0.4', '8.0.400', '9.0.101', '10.0.100-rc.2', '10.0.100']);
  });

  it('lists only SDK folders that contain dotnet.dll', () => {
    const dir = root(['8.0.100', '10.0.401']);
    fs.mkdirSync(path.join(dir, 'sdk', 'NuGetFallbackFolder'));
    fs.mkdirSync(path.join(dir, 'sdk', '9.0.100')); // an empty, half-removed SDK
    assert.deepEqual(listSdkVersions(dir), ['8.0.100', '10.0.401']);
  });

  it('prefers the configured path, then DOTNET_ROOT, then PATH', () => {
    const configured = root(['9.0.100']);
    const fromEnv = root(['10.0.100']);
    const onPath = root(['8.0.100']);
    const env = { DOTNET_ROOT: fromEnv, PATH: onPath, HOME: '/nonexistent' };
    assert.equal(locateDotnet({ configuredPath: path.join(configured, 'dotnet'), env, platform: 'linux', standardRoots: [] }).root, fs.realpathSync(configured));
    assert.equal(locateDotnet({ env, platform: 'linux', standardRoots: [] }).root, fs.realpathSync(fromEnv));
    assert.deepEqual(locateDotnet({ env: { PATH: onPath, HOME: '/nonexistent' }, platform: 'linux', standardRoots: [] }).sdkVersions, ['8.0.100']);
  });

  it('skips a dotnet whose SDKs are all older than 8 and says so when nothing else is found', () => {
    const old = root(['6.0.400', '7.0.100']);
    assert.throws(() => locateDotnet({ env: { PATH: old, HOME: '/nonexistent' }, platform: 'linux', standardRoots: [] }), (error: unknown) => {
      assert.ok(error instanceof DotnetNotFoundError);
      assert.match(error.message, /needs a \.NET SDK 8 or newer .*; found only .*SDKs 6\.0\.400, 7\.0\.100/);
      assert.match(error.message, /dotnet\.microsoft\.com\/download/);
      return true;
    });
  });

  it('needs the .NET 10 runtime for the host even when an SDK 8 is present', () => {
    const sdk8Only = root(['8.0.400'], ['8.0.10']);
    assert.throws(() => locateDotnet({ env: { PATH: sdk8Only, HOME: '/nonexistent' }, platform: 'linux', standardRoots: [] }), /the \.NET 10 runtime .*runtimes 8\.0\.10/);
    const withRuntime10 = root(['8.0.400'], ['8.0.10', '10.0.2']);
    assert.deepEqual(locateDotnet({ env: { PATH: withRuntime10, HOME: '/nonexistent' }, platform: 'linux', standardRoots: [] }).runtimeVersions, ['8.0.10', '10.0.2']);
  });

  it('names a configured path that is not a file', () => {
    assert.throws(
      () => locateDotnet({ configuredPath: '/no/such/dotnet', env: { PATH: '', HOME: '/nonexistent' }, platform: 'linux', standardRoots: [] }),
      /sharpclaw\.dotnetPath points to "\/no\/such\/dotnet", which is not a file/,
    );
  });

  it('explains how to install .NET when there is none at all', () => {
    assert.throws(() => locateDotnet({ env: { PATH: '/nonexistent-bin', HOME: '/nonexistent' }, platform: 'win32', standardRoots: [] }), /no dotnet was found on PATH.*Install it from https:\/\/dotnet\.microsoft\.com\/download/);
  });

  it('finds the real SDK on this machine', () => {
    const found = locateDotnet();
    assert.ok(found.sdkVersions.some((version) => Number(version.split('.')[0]) >= 8), found.sdkVersions.join(', '));
    assert.ok(fs.existsSync(found.executable));
  });
});
