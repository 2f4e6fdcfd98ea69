// The engine (src/engine) is what every surface stands on, so it must know nothing of VS Code and
// nothing of the surfaces above it. This walks every import of every engine file and fails on
// `vscode`, `vscode-languageclient` or a path into src/surfaces.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const engineRoot = path.join(repoRoot, 'src', 'engine');
const importPattern = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm;

function engineFiles(): string[] {
  return fs.readdirSync(engineRoot, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(engineRoot, file));
}

describe('engine boundary', () => {
  it('has files to check', () => {
    assert.ok(engineFiles().length > 20, 'src/engine should hold the protocol, tools, host and verification');
  });

  it('imports neither vscode nor a surface', () => {
    const offenders: string[] = [];
    for (const file of engineFiles()) {
      const text = fs.readFileSync(file, 'utf8');
      for (const match of text.matchAll(importPattern)) {
        const specifier = match[2]!;
        const leavesEngine = specifier.startsWith('.') && !path.resolve(path.dirname(file), specifier).startsWith(engineRoot + path.sep);
        if (specifier === 'vscode' || specifier.startsWith('vscode-languageclient') || leavesEngine) {
          offenders.push(`${path.relative(repoRoot, file)} imports ${specifier}`);
        }
      }
    }
    assert.deepEqual(offenders, []);
  });
});
