// verify --tests reached: the runners' filters built from reached tests (escaping, nested and
// inherited classes, the length limit), the framework read from package references, the request's
// --tests parsing, and the one selection line every surface shows.
import * as assert from 'node:assert/strict';
import { escapeFilterValue, maxFilterLength, testFilterFor, testFrameworkOf, type ReachedTest } from '../../../src/engine/verification/testFilter';
import { testSelectionLine } from '../../../src/engine/verification/testSelection';
import { parseVerifyCommandLine } from '../../../src/engine/verification/request';
import { resolveVerificationSettings } from '../../../src/engine/config/verificationSettings';

const test = (fullyQualifiedName: string, className: string[] = []): ReachedTest => ({ name: fullyQualifiedName.replace(/\+/g, '.'), fullyQualifiedName, className, project: 'tests/T.csproj', path: 'tests/T.cs', line: 1 });

describe('verify --tests reached: filters', () => {
  it('joins VSTest FullyQualifiedName clauses with |, nested classes with +, each name once and sorted', () => {
    const filter = testFilterFor('vstest', 'other', [test('N.Outer+Inner.B'), test('N.C.A'), test('N.C.A')]);
    assert.deepEqual(filter, { kind: 'filter', args: ['--filter', 'FullyQualifiedName=N.C.A|FullyQualifiedName=N.Outer+Inner.B'], names: ['N.C.A', 'N.Outer+Inner.B'] });
  });

  it("names a test of an abstract class by each concrete class it runs in", () => {
    const filter = testFilterFor('vstest', 'other', [test('N.Base.Works', ['N.Left', 'N.Right'])]);
    assert.equal(filter.kind === 'filter' && filter.args[1], 'FullyQualifiedName=N.Left.Works|FullyQualifiedName=N.Right.Works');
  });

  it('matches a test of a generic class by the parts around its type arguments (NUnit names FeeTests<Int32>)', () => {
    // Checked against the real runner in test/host-e2e/verification/reachedRunnerNames.test.ts.
    assert.deepEqual(testFilterFor('mtp', 'nunit', [test('N.FeeTests`1.Fee'), test('N.C.A')]), {
      kind: 'filter',
      args: ['--filter', 'FullyQualifiedName=N.C.A|(FullyQualifiedName~N.FeeTests<&FullyQualifiedName~>.Fee)'],
      names: ['N.C.A', 'N.FeeTests`1.Fee'],
    });
    const nested = testFilterFor('vstest', 'other', [test('N.Outer`1+Inner`2.M')]);
    assert.equal(nested.kind === 'filter' && nested.args[1], '(FullyQualifiedName~N.Outer<&FullyQualifiedName~>+Inner<&FullyQualifiedName~>.M)');
  });

  it("escapes the filter language's operator characters", () => {
    assert.equal(escapeFilterValue('A(b)|c&d=e!f~g\\h'), 'A\\(b\\)\\|c\\&d\\=e\\!f\\~g\\\\h');
  });

  it('uses --filter-method for xunit.v3 on the platform, and --filter for MSTest and NUnit there', () => {
    assert.deepEqual(testFilterFor('mtp', 'xunit.v3', [test('N.C.A'), test('N.C.B')]), { kind: 'filter', args: ['--filter-method', 'N.C.A', '--filter-method', 'N.C.B'], names: ['N.C.A', 'N.C.B'] });
    assert.deepEqual(testFilterFor('mtpUnderVstest', 'mstest', [test('N.C.A')]), { kind: 'filter', args: ['--filter', 'FullyQualifiedName=N.C.A'], names: ['N.C.A'] });
    assert.equal(testFilterFor('mtp', 'other', [test('N.C.A')]).kind, 'unsupported');
  });

  it('names the reached tests\' classes when naming each test would be longer than a command line takes (a superset)', () => {
    const many = Array.from({ length: 400 }, (_, i) => test(`Some.Long.Namespace.Name.${i % 2 ? 'Left' : 'Right'}Tests.Test_${i}_WithAName`));
    const vstest = testFilterFor('vstest', 'other', many);
    assert.equal(vstest.kind, 'classes');
    if (vstest.kind !== 'classes') return;
    assert.deepEqual(vstest.args, ['--filter', 'FullyQualifiedName~Some.Long.Namespace.Name.LeftTests.|FullyQualifiedName~Some.Long.Namespace.Name.RightTests.']);
    assert.equal(vstest.names.length, 400);
    assert.match(vstest.reason, new RegExp(`^every test of the 2 classes holding its 400 reached tests ran: a filter naming each of its 400 reached tests would be \\d+ characters \\(over ${maxFilterLength}\\)$`));
    const xunit = testFilterFor('mtp', 'xunit.v3', many);
    assert.deepEqual(xunit.kind === 'classes' && xunit.args, [
      '--filter-class',
      'Some.Long.Namespace.Name.LeftTests',
      '--filter-class',
      'Some.Long.Namespace.Name.RightTests',
    ]);
    // A generic fixture's class is matched by the parts around its type arguments, as its tests are.
    const generic = testFilterFor('mtp', 'nunit', Array.from({ length: 400 }, (_, i) => test(`Some.Long.Namespace.Name.FeeTests\`1.Test_${i}_WithAName`)));
    assert.deepEqual(generic.kind === 'classes' && generic.args, ['--filter', '(FullyQualifiedName~Some.Long.Namespace.Name.FeeTests<&FullyQualifiedName~>.)']);
  });

  it('gives up when even the classes would be longer than a command line takes, saying how long each filter would be', () => {
    const many = Array.from({ length: 400 }, (_, i) => test(`Some.Long.Namespace.Name.TestClass${i}.Test_${i}_WithAName`));
    const filter = testFilterFor('vstest', 'other', many);
    assert.equal(filter.kind, 'tooLong');
    assert.match(filter.kind === 'tooLong' ? filter.reason : '', new RegExp(`400 reached tests would be \\d+ characters \\(over ${maxFilterLength}\\), and one naming their 400 classes \\d+$`));
  });

  it('reads the framework from package references', () => {
    assert.equal(testFrameworkOf(['xunit.v3.mtp-v2']), 'xunit.v3');
    assert.equal(testFrameworkOf(['MSTest.TestFramework']), 'mstest');
    assert.equal(testFrameworkOf(['NUnit', 'NUnit3TestAdapter']), 'nunit');
    assert.equal(testFrameworkOf(['xunit']), 'other');
  });
});

describe('verify --tests reached: the request and the report line', () => {
  it('parses --tests and refuses other values', () => {
    assert.equal(parseVerifyCommandLine(['--scope', 'affected', '--tests', 'reached']).testSelection, 'reached');
    assert.throws(() => parseVerifyCommandLine(['--tests', 'some']), /--tests must be one of all, reached, not "some"/);
  });

  it('validates verification.testSelection like the other settings', () => {
    assert.equal(resolveVerificationSettings([{ source: 'settings.jsonc', values: { testSelection: 'reached' } }]).testSelection, 'reached');
    assert.throws(() => resolveVerificationSettings([{ source: 'settings.jsonc', values: { testSelection: 'some' } }]), /sharpclaw\.verification\.testSelection = "some" in settings\.jsonc: expected one of all, reached/);
  });

  it('says how many of the projects\' tests ran, from how many members, and which projects were skipped or run whole', () => {
    assert.equal(
      testSelectionLine({ kind: 'reached', run: 12, total: 80, changedMembers: 3, skippedProjects: 2, wholeProjects: [{ project: 'tests/Big.csproj', reason: 'the filter would be too long' }], classProjects: [] }),
      '12 of 80 tests run (reached from 3 changed members; the other 68 do not reach them); 2 projects skipped: no reached test; tests/Big.csproj run whole: the filter would be too long',
    );
    assert.equal(testSelectionLine({ kind: 'reached', run: 1, total: 2, changedMembers: 1, skippedProjects: 0, wholeProjects: [], classProjects: [] }), '1 of 2 tests run (reached from 1 changed member; the other 1 does not reach them)');
    assert.equal(testSelectionLine({ kind: 'reached', run: 1, total: 1, changedMembers: 1, skippedProjects: 0, wholeProjects: [], classProjects: [] }), '1 of 1 test run (reached from 1 changed member)');
    assert.equal(
      testSelectionLine({ kind: 'reached', run: 158, total: 400, changedMembers: 1, skippedProjects: 0, wholeProjects: [], classProjects: [{ project: 'tests/Big.csproj', reason: 'every test of the 23 classes holding its 158 reached tests ran: …' }] }),
      'at least 158 of 400 tests run (reached from 1 changed member; the other 242 do not reach them); tests/Big.csproj: every test of the 23 classes holding its 158 reached tests ran: …',
    );
    assert.equal(testSelectionLine({ kind: 'all', reason: 'README.md is not a C# file' }), 'all run — README.md is not a C# file');
  });
});
