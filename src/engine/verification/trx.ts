// Reads VSTest / Microsoft.Testing.Platform TRX files safely (xmlReader.ts): no DTD (a document that
// declares one is rejected), no entity expansion (only XML's five predefined entities and character
// references are decoded), and a malformed document is an error, never "no tests".
import { emptyCounters, type TestCounters } from './report';
import { childNamed, childrenNamed, readXml, XmlError, type XmlElement } from './xmlReader';

export class TrxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrxError';
  }
}

export interface TrxTestResult {
  name: string;
  outcome: string;
  message: string;
  stackTrace: string;
  /** The test assembly (TestMethod@codeBase or UnitTest@storage), when the TRX names it. */
  assembly: string | null;
}

export interface TrxRun {
  counters: TestCounters;
  results: TrxTestResult[];
  /** ResultSummary@outcome: Completed, Failed, Aborted, ... */
  summaryOutcome: string | null;
  /** RunInfo texts with outcome Error or Failed: a crashed test host, an aborted run. */
  runErrors: string[];
  /** Microsoft.Testing.Platform's "zero tests ran" (exit code 8), which is not a failure. */
  zeroTestsExitCode: boolean;
}

const passedOutcomes = new Set(['Passed', 'Completed']);
const failedOutcomes = new Set(['Failed', 'Error', 'Timeout', 'Aborted', 'PassedButRunAborted', 'Disconnected']);
const skippedOutcomes = new Set(['NotExecuted']);

/**
 * A test's name qualified by its class: MSTest's and NUnit's TRX (VSTest's, and MTP's through
 * Microsoft.Testing.Extensions.TrxReport) name a test by its display name, the bare method or the method
 * with its case's arguments (`Add_AddsTenPercent`, `Rounds(1.005m)`); xunit's names are qualified already.
 */
function qualified(testName: string, className: string | null, method: string | null): string {
  if (!className || !method) return testName;
  const bare = testName === method || testName.startsWith(`${method}(`) || testName.startsWith(`${method} (`);
  return bare ? `${className}.${testName}` : testName;
}

export function parseTrx(xml: string): TrxRun {
  let document: XmlElement;
  try {
    document = readXml(xml);
  } catch (error) {
    if (!(error instanceof XmlError)) throw error;
    throw new TrxError(error.dtd ? 'the TRX declares a DTD, which a test result never needs; it was not read' : `the TRX is not well-formed XML: ${error.message}`);
  }
  if (document.name !== 'TestRun') throw new TrxError('the TRX has no TestRun element');

  const definitions = new Map<string, { assembly: string | null; className: string | null; method: string | null }>();
  for (const unitTest of childrenNamed(childNamed(document, 'TestDefinitions'), 'UnitTest')) {
    const method = childNamed(unitTest, 'TestMethod')?.attributes;
    const id = unitTest.attributes.get('id');
    if (id !== undefined) definitions.set(id, { assembly: method?.get('codeBase') ?? unitTest.attributes.get('storage') ?? null, className: method?.get('className') ?? null, method: method?.get('name') ?? null });
  }

  const counters = emptyCounters();
  const results: TrxTestResult[] = [];
  for (const result of childrenNamed(childNamed(document, 'Results'), 'UnitTestResult')) {
    const outcome = result.attributes.get('outcome') ?? 'Unknown';
    counters.total++;
    if (passedOutcomes.has(outcome)) counters.passed++;
    else if (failedOutcomes.has(outcome)) counters.failed++;
    else if (skippedOutcomes.has(outcome)) counters.skipped++;
    else counters.other++;
    const errorInfo = childNamed(childNamed(result, 'Output'), 'ErrorInfo');
    const testId = result.attributes.get('testId');
    const definition = testId === undefined ? undefined : definitions.get(testId);
    const testName = result.attributes.get('testName') ?? '';
    results.push({
      name: qualified(testName, definition?.className ?? null, definition?.method ?? null),
      outcome,
      message: (childNamed(errorInfo, 'Message')?.text ?? '').trim(),
      stackTrace: (childNamed(errorInfo, 'StackTrace')?.text ?? '').trim(),
      assembly: definition?.assembly ?? null,
    });
  }

  const summary = childNamed(document, 'ResultSummary');
  const runInfos = childrenNamed(childNamed(summary, 'RunInfos'), 'RunInfo').map((info) => ({ outcome: info.attributes.get('outcome'), text: childNamed(info, 'Text')?.text ?? '' }));
  // xUnit echoes each failing test as an Error RunInfo ("[xUnit.net 00:00:02.28]     Name [FAIL]"): that is the
  // ordinary failure the results already report, not a problem of the test run.
  const runErrors = runInfos
    .filter((info) => info.outcome === 'Error' || info.outcome === 'Failed')
    .map((info) => info.text.trim())
    .filter((message) => !/^\[xUnit\.net [^\]]*\]\s+\S.*\[FAIL\]$/.test(message))
    // MTP's TRX echoes exit code 2 ("at least one test failed") as an Error RunInfo: the failed results already say it.
    .filter((message) => !(counters.failed > 0 && /^Exit code indicates failure: '2'\./.test(message)));
  const zeroTestsExitCode = counters.total === 0 && runInfos.some((info) => /exit code 8\b|zero tests ran/i.test(info.text));
  return {
    counters,
    results,
    summaryOutcome: summary?.attributes.get('outcome') ?? null,
    runErrors: zeroTestsExitCode ? [] : runErrors,
    zeroTestsExitCode,
  };
}
