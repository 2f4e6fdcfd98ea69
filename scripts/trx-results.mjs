// Reads a TRX file (VSTest's trx logger, xunit.v3's --report-xunit-trx) into the test results the truth scripts
// compare: each result as Namespace.Class.Method (the definition's class and method name, arguments dropped) with its
// outcome. Attribute order independent; a regular-expression reader is enough for these machine-written files.
import * as fs from 'node:fs';

const attribute = (tag, name) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** Every result of a TRX file: { name: 'Namespace.Class.Method', outcome: 'Passed' | 'Failed' | 'NotExecuted' | … }. */
export function trxResults(file) {
  const xml = fs.readFileSync(file, 'utf8');
  const methods = new Map();
  for (const m of xml.matchAll(/(<UnitTest\s[^>]*>)[\s\S]*?(<TestMethod\s[^>]*>)/g)) {
    methods.set(attribute(m[1], 'id'), `${attribute(m[2], 'className')?.split(',')[0]}.${attribute(m[2], 'name')?.split('(')[0]}`);
  }
  return [...xml.matchAll(/<UnitTestResult\s[^>]*>/g)].map((m) => ({
    name: methods.get(attribute(m[0], 'testId')) ?? attribute(m[0], 'testName')?.split('(')[0],
    outcome: attribute(m[0], 'outcome'),
  }));
}

/** The failed tests of a TRX file, as Namespace.Class.Method. */
export const failedInTrx = (file) => trxResults(file).filter((r) => r.outcome === 'Failed').map((r) => r.name);
