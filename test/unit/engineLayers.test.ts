// The engine's folders are layers: each may import only from the layers below it, so a utility
// never depends on what uses it and a change at the top cannot ripple down. The order is written
// out here (lowest first); a file in a folder the order does not name fails too, so a new folder
// is placed on purpose. Units in one layer are peers and must not import each other.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const engineRoot = path.join(repoRoot, 'src', 'engine');
const importPattern = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm;

/** Lowest first. A unit is a folder of src/engine or a file at its root. */
const layers: readonly (readonly string[])[] = [
  ['protocol'], // the contract with the host: records, schemas, the method table, callHost
  ['errors.ts', 'stateFolder.ts', 'processes'], // typed errors, the per-user state folder, process trees
  ['files', 'input'], // files SharpClaw does not own (bounded reads, confined writes); the bounds of every input
  ['permissions'], // the permission policy, the one gate every request passes and its one-shot grants
  ['host'], // starting, supervising and calling the Roslyn host
  ['workspaceLock.ts'], // the lock that serializes verifications of a workspace
  ['verification'], // the verifier: requests, reports, the runner and its steps
  ['config'], // settings layers and their resolution into requests
  ['tools', 'turns'], // tool definitions; the agent turn and its verify-and-repair loop
  ['session.ts'], // the one entry per capability: runTool, verify
];

/** `host/hostSupervisor.ts` → host; `session.ts` → session.ts; an import's `../errors` (no extension) → errors.ts. */
function unitOf(relative: string): string {
  const [first, ...rest] = relative.split('/');
  if (rest.length > 0) return first!;
  return first!.endsWith('.ts') ? first! : `${first!}.ts`;
}

function rankOf(unit: string): number {
  return layers.findIndex((layer) => layer.includes(unit));
}

interface SourceFile {
  /** Path relative to src/engine, with forward slashes. */
  relative: string;
  text: string;
}

/** Every import of `files` that leaves its unit for a unit of the same or a higher layer, and every unit no layer names. */
function layerViolations(files: readonly SourceFile[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const unit = unitOf(file.relative);
    const rank = rankOf(unit);
    if (rank < 0) {
      found.push(`${file.relative}: its unit ${unit} is in no layer`);
      continue;
    }
    for (const match of file.text.matchAll(importPattern)) {
      const specifier = match[2]!;
      if (!specifier.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.relative), specifier));
      if (target.startsWith('..')) continue; // leaving the engine: engineBoundary.test.ts
      const targetUnit = unitOf(target);
      if (targetUnit === unit) continue;
      const targetRank = rankOf(targetUnit);
      if (targetRank >= rank) found.push(`${file.relative} imports ${specifier}: ${targetUnit} is ${targetRank === rank ? 'its peer' : 'above it'}`);
    }
  }
  return found;
}

function engineSources(): SourceFile[] {
  return fs
    .readdirSync(engineRoot, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({ relative: file.split(path.sep).join('/'), text: fs.readFileSync(path.join(engineRoot, file), 'utf8') }));
}

describe('engine layers', () => {
  it('no folder of src/engine imports one above it or a peer, and every folder has a layer', () => {
    assert.deepEqual(layerViolations(engineSources()), []);
  });

  it('the check finds an import that runs back up, one between peers, and an unplaced folder', () => {
    assert.deepEqual(
      layerViolations([
        { relative: 'protocol/callHost.ts', text: "import type { HostRequester } from '../host/hostRequester';" },
        { relative: 'workspaceLock.ts', text: "import { isAlive } from './verification/processTree';" },
        { relative: 'turns/loop.ts', text: "import { runTool } from '../tools/runTool';" },
        { relative: 'tools/verify.ts', text: "import { Session } from '../session';\nimport { ToolError } from '../errors';" },
        { relative: 'newFolder/thing.ts', text: '' },
      ]),
      [
        'protocol/callHost.ts imports ../host/hostRequester: host is above it',
        'workspaceLock.ts imports ./verification/processTree: verification is above it',
        'turns/loop.ts imports ../tools/runTool: tools is its peer',
        'tools/verify.ts imports ../session: session.ts is above it',
        'newFolder/thing.ts: its unit newFolder is in no layer',
      ],
    );
  });
});
