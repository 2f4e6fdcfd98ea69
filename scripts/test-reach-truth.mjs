#!/usr/bin/env node
// Checks navigate's tests action against runtime truth on fixtures/TestReach: for each planted member, ask
// `sharpclaw tool csharp_navigate {action: tests}` on the unchanged code, then make the member throw, build,
// run every test project (VSTest's dotnet test; the xunit.v3 MTP executable), and check that every failing
// test is in the answer — or, when it is not, that the answer's "cannot follow" line was there to say so.
// Usage: npm run build && node scripts/test-reach-truth.mjs   (needs restored packages; runs project code:
// this is a person's explicit command, like dotnet test).
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { failedInTrx } from './trx-results.mjs';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'test-reach-'));
fs.cpSync(path.join(repo, 'fixtures', 'TestReach'), work, { recursive: true, filter: (from) => !/[\\/](bin|obj)$/.test(from) });

/** Each planted fault: the symbol asked, the file, the text replaced and its throwing replacement. */
const faults = [
  ['Circle.Area', 'src/Shapes/Shapes.cs', 'public double Area() => Math.PI * radius * radius;', 'public double Area() => throw new InvalidOperationException("planted");'],
  ['Units.Scale', 'src/Shapes/Geometry.cs', 'public static double Scale(double value) => value;', 'public static double Scale(double value) => throw new InvalidOperationException("planted");'],
  ['Seed.Items', 'src/Shapes/Money.cs', 'public static List<Money> Items() => [];', 'public static List<Money> Items() => throw new System.InvalidOperationException("planted");'],
  ['Rounding.Cents', 'src/Shapes/Money.cs', 'public static decimal Cents(decimal amount) => decimal.Round(amount, 2);', 'public static decimal Cents(decimal amount) => throw new System.InvalidOperationException("planted");'],
  ['Counting.Of', 'src/Shapes/Money.cs', 'public static int Of<T>(List<T> list) => list.Count;', 'public static int Of<T>(List<T> list) => throw new System.InvalidOperationException("planted");'],
  ['Stamp.Now', 'src/App/Composition.cs', 'public static int Now() => 12;', 'public static int Now() => throw new System.InvalidOperationException("planted");'],
  ['Calibration.ClassFixtureSeed', 'src/Shapes/Calibration.cs', 'public static int ClassFixtureSeed() => 1;', 'public static int ClassFixtureSeed() => throw new System.InvalidOperationException("planted");'],
  ['Calibration.CollectionSeed', 'src/Shapes/Calibration.cs', 'public static int CollectionSeed() => 2;', 'public static int CollectionSeed() => throw new System.InvalidOperationException("planted");'],
  ['Calibration.AssemblySeed', 'src/Shapes/Calibration.cs', 'public static int AssemblySeed() => 3;', 'public static int AssemblySeed() => throw new System.InvalidOperationException("planted");'],
  ['Calibration.AssemblyFixtureSeed', 'src/Shapes/Calibration.cs', 'public static int AssemblyFixtureSeed() => 5;', 'public static int AssemblyFixtureSeed() => throw new System.InvalidOperationException("planted");'],
  ['Calibration.NamespaceSeed', 'src/Shapes/Calibration.cs', 'public static int NamespaceSeed() => 4;', 'public static int NamespaceSeed() => throw new System.InvalidOperationException("planted");'],
  ['Calibration.MemberDataSeed', 'src/Shapes/Calibration.cs', 'public static int MemberDataSeed() => 6;', 'public static int MemberDataSeed() => throw new System.InvalidOperationException("planted");'],
  ['Calibration.ClassDataSeed', 'src/Shapes/Calibration.cs', 'public static int ClassDataSeed() => 7;', 'public static int ClassDataSeed() => throw new System.InvalidOperationException("planted");'],
  ['Calibration.SourceSeed', 'src/Shapes/Calibration.cs', 'public static int SourceSeed() => 8;', 'public static int SourceSeed() => throw new System.InvalidOperationException("planted");'],
  ['Calibration.DynamicSeed', 'src/Shapes/Calibration.cs', 'public static int DynamicSeed() => 9;', 'public static int DynamicSeed() => throw new System.InvalidOperationException("planted");'],
  ['Formatter.Format', 'src/App/Printer.cs', 'public static string Format(double value) => value.ToString("0.00", CultureInfo.InvariantCulture);', 'public static string Format(double value) => throw new System.InvalidOperationException("planted");'],
];

const dotnet = (args) => spawnSync('dotnet', args, { cwd: work, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const ms = (start) => Math.round(performance.now() - start);

function ask(symbol) {
  // Pages end at the answer's byte budget: follow "next offset: N" until there is none.
  const tests = [];
  let cannotFollow = false;
  for (let offset = 0; ; ) {
    const out = execFileSync('node', [path.join(repo, 'dist', 'cli.js'), 'tool', 'csharp_navigate', '--input', JSON.stringify({ action: 'tests', symbol, limit: 200, offset }), '--allow-evaluation', '--cwd', work], { encoding: 'utf8' });
    tests.push(...[...out.matchAll(/^\S+:\d+:\d+ test (\S+)$/gm)].map((m) => m[1]));
    cannotFollow ||= /^cannot follow: /m.test(out);
    const next = /next offset: (\d+)/.exec(out);
    if (!next) return { tests, cannotFollow };
    offset = Number(next[1]);
  }
}

function failingTests() {
  const failing = new Set();
  const results = fs.mkdtempSync(path.join(work, 'results-'));
  for (const project of ['tests/Shapes.XunitVstest', 'tests/Shapes.NUnit', 'tests/Shapes.MSTest']) {
    dotnet(['test', project, '--no-build', '-nologo', '--logger', `trx;LogFileName=${path.basename(project)}.trx`, '--results-directory', results]);
  }
  // The xunit.v3 executable run directly uses xunit's own console options (-trx FILE).
  dotnet([path.join('tests', 'Shapes.XunitV3', 'bin', 'Debug', 'net10.0', 'Shapes.XunitV3.dll'), '-trx', path.join(results, 'Shapes.XunitV3.trx')]);
  for (const file of fs.readdirSync(results, { recursive: true }).filter((f) => String(f).endsWith('.trx'))) {
    for (const name of failedInTrx(path.join(results, String(file)))) failing.add(name);
  }
  fs.rmSync(results, { recursive: true, force: true });
  return failing;
}

const build = () => {
  const run = dotnet(['build', 'TestReach.slnx', '-nologo', '--tl:off', '-v:q']);
  if (run.status !== 0) throw new Error(`build failed:\n${run.stdout.slice(-3000)}`);
};

let start = performance.now();
if (dotnet(['restore', 'TestReach.slnx', '-nologo', '-v:q']).status !== 0) throw new Error('restore failed');
build();
const baseline = failingTests();
if (baseline.size) throw new Error(`tests fail before any fault: ${[...baseline].join(', ')}`);
console.log(`baseline: restore, build and every test passed in ${ms(start)} ms`);

const answers = new Map();
for (const [symbol] of faults) {
  start = performance.now();
  answers.set(symbol, ask(symbol));
  console.log(`navigate tests ${symbol}: ${answers.get(symbol).tests.length} tests, ${ms(start)} ms${answers.get(symbol).cannotFollow ? ', cannot follow: yes' : ''}`);
}

let missed = 0;
for (const [symbol, file, from, to] of faults) {
  const full = path.join(work, file);
  const original = fs.readFileSync(full, 'utf8');
  if (!original.includes(from)) throw new Error(`${file} has no "${from}"`);
  fs.writeFileSync(full, original.replace(from, to));
  try {
    start = performance.now();
    build();
    const failing = [...failingTests()].sort();
    const answer = answers.get(symbol);
    const notListed = failing.filter((name) => !answer.tests.includes(name));
    const explained = notListed.length > 0 && answer.cannotFollow;
    if (notListed.length && !explained) missed++;
    console.log(`${symbol}: ${failing.length} failing, ${answer.tests.length} listed, ${notListed.length} failing not listed${notListed.length ? ` (${notListed.join(', ')})${explained ? ' — the answer said it cannot follow' : ' — MISSED'}` : ''}; ${ms(start)} ms`);
  } finally {
    fs.writeFileSync(full, original);
  }
}

fs.rmSync(work, { recursive: true, force: true });
console.log(missed === 0 ? 'every failing test was listed, or the answer named what it could not follow' : `${missed} faults had failing tests the answer neither listed nor warned about`);
process.exitCode = missed === 0 ? 0 : 1;
