// The command-line filter that runs only some tests of one test project, in each runner's own
// dialect: VSTest's `--filter` expression (FullyQualifiedName=A|FullyQualifiedName=B), xunit.v3 on
// Microsoft.Testing.Platform its `--filter-method` (one per test), MSTest and NUnit on the platform
// their `--filter` (VSTest's expression language). A filter too long for a command line names the
// reached tests' classes instead (a superset: every test of those classes runs); when even that is
// too long there is no filter: the project runs whole, and the caller says why.
import type { ReachedTestsResult } from '../protocol/reachedTests';
import type { TestRunner } from './report';

export type ReachedTest = ReachedTestsResult['tests'][number];

/** The test framework of a project, from its package references (the filter option on MTP depends on it). */
export type TestFramework = 'xunit.v3' | 'mstest' | 'nunit' | 'other';

export function testFrameworkOf(packageReferences: readonly string[]): TestFramework {
  const has = (prefix: string) => packageReferences.some((name) => name.toLowerCase() === prefix || name.toLowerCase().startsWith(`${prefix}.`));
  if (has('xunit.v3')) return 'xunit.v3';
  if (has('mstest') || has('mstest.testframework')) return 'mstest';
  if (has('nunit')) return 'nunit';
  return 'other';
}

/** Longest filter put on a command line (Windows allows 32,767 characters for the whole line). */
export const maxFilterLength = 8000;

/** The fully qualified method names a runner sees for a test: one per concrete class it runs in. */
export function runnerNamesOf(test: ReachedTest): string[] {
  const method = test.fullyQualifiedName.slice(test.fullyQualifiedName.lastIndexOf('.') + 1);
  const classes = test.className.length > 0 ? test.className : [test.fullyQualifiedName.slice(0, test.fullyQualifiedName.lastIndexOf('.'))];
  return classes.map((name) => `${name}.${method}`);
}

/** A value in VSTest's filter language: its operator characters taken literally. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\()&|=!~]/g, (c) => `\\${c}`);
}

/** Reflection's arity marker in a class name (`Fixture`1`): the runner names that class by its type arguments. */
const genericArity = /`\d+/g;

/**
 * One runner name as a term of VSTest's filter language. A name in a generic class is not literal: NUnit names a
 * closed fixture by its type arguments (`Ns.FeeTests<Int32>.Fee_IsOnePercent`), which only the fixture's attribute
 * decides, so each part between the type arguments must be contained (`Ns.FeeTests<` and `>.Fee_IsOnePercent`): a
 * superset of the test, never less.
 */
function vstestTerm(name: string): string {
  const parts = name.split(genericArity);
  if (parts.length === 1) return `FullyQualifiedName=${escapeFilterValue(name)}`;
  const pieces = parts.map((part, i) => `${i > 0 ? '>' : ''}${part}${i < parts.length - 1 ? '<' : ''}`);
  return `(${pieces.map((piece) => `FullyQualifiedName~${escapeFilterValue(piece)}`).join('&')})`;
}

/**
 * A class of runner names as a term of VSTest's filter language: every name that contains `Class.` (a
 * generic class by the parts around its type arguments, as vstestTerm). Contains, so a test of a class
 * whose name ends the same way runs too: a superset, never less.
 */
function vstestClassTerm(className: string): string {
  const parts = `${className}.`.split(genericArity);
  const pieces = parts.map((part, i) => `${i > 0 ? '>' : ''}${part}${i < parts.length - 1 ? '<' : ''}`);
  const terms = pieces.map((piece) => `FullyQualifiedName~${escapeFilterValue(piece)}`);
  return terms.length === 1 ? terms[0]! : `(${terms.join('&')})`;
}

export type TestFilter =
  | { kind: 'filter'; args: string[]; names: string[] }
  /** The reached tests' classes, run whole: a filter naming each test would not fit a command line. */
  | { kind: 'classes'; args: string[]; names: string[]; reason: string }
  | { kind: 'tooLong'; reason: string }
  | { kind: 'unsupported'; reason: string };

const lengthOf = (args: readonly string[]) => args.reduce((sum, arg) => sum + arg.length + 1, 0);

/**
 * The arguments that make `dotnet test` (or the MTP app) run only `tests` of this project; they go
 * after every other argument (for an MTP app under VSTest mode, after its `--`).
 */
export function testFilterFor(runner: TestRunner, framework: TestFramework, tests: readonly ReachedTest[]): TestFilter {
  const names = [...new Set(tests.flatMap(runnerNamesOf))].sort();
  const classes = [...new Set(names.map((name) => name.slice(0, name.lastIndexOf('.'))))].sort();
  let args: string[];
  let classArgs: string[];
  if (runner === 'vstest' || framework === 'mstest' || framework === 'nunit') {
    args = ['--filter', names.map(vstestTerm).join('|')];
    classArgs = ['--filter', classes.map(vstestClassTerm).join('|')];
  } else if (framework === 'xunit.v3') {
    // xunit.v3 matches reflection's names as they are: `Outer+Inner`, a generic class by its arity.
    args = names.flatMap((name) => ['--filter-method', name]);
    classArgs = classes.flatMap((name) => ['--filter-class', name]);
  } else {
    return { kind: 'unsupported', reason: 'its test framework on Microsoft.Testing.Platform has no known filter option' };
  }
  const length = lengthOf(args);
  if (length <= maxFilterLength) return { kind: 'filter', args, names };
  const byTest = `a filter naming each of its ${names.length} reached tests would be ${length} characters (over ${maxFilterLength})`;
  if (lengthOf(classArgs) <= maxFilterLength) {
    return { kind: 'classes', args: classArgs, names, reason: `every test of the ${classes.length} class${classes.length === 1 ? '' : 'es'} holding its ${names.length} reached tests ran: ${byTest}` };
  }
  return { kind: 'tooLong', reason: `${byTest}, and one naming their ${classes.length} classes ${lengthOf(classArgs)}` };
}
