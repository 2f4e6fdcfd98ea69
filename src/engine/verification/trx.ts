// Reads VSTest / Microsoft.Testing.Platform TRX files safely: no DTD (a document that declares one
// is rejected), no entity expansion (only XML's five predefined entities and character
// references are decoded, by hand), and a malformed document is an error, never "no tests".
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { emptyCounters, type TestCounters } from './report';

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

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (name) => ['UnitTestResult', 'UnitTest', 'RunInfo', 'InnerResults'].includes(name),
});

/** Decodes the predefined XML entities and numeric character references; anything else stays literal. */
export function decodeXmlText(value: string): string {
  return value.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (whole, name: string) => {
    switch (name) {
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'amp':
        return '&';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      default: {
        const code = name.startsWith('#x') ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
    }
  });
}

type Node = Record<string, unknown>;
const asNode = (value: unknown): Node => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : {});
const asArray = (value: unknown): Node[] => (Array.isArray(value) ? value.map(asNode) : value === undefined ? [] : [asNode(value)]);

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return decodeXmlText(value);
  if (typeof value === 'object' && '#text' in (value as Node)) return decodeXmlText(String((value as Node)['#text']));
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

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
  const body = xml.replace(/^\uFEFF/, '');
  if (/<!DOCTYPE/i.test(body) || /<!ENTITY/i.test(body)) throw new TrxError('the TRX declares a DTD or entities, which a test result never needs; it was not read');
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw new TrxError(`the TRX is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const document = asNode(parser.parse(body));
  const run = document.TestRun;
  if (!run || typeof run !== 'object') throw new TrxError('the TRX has no TestRun element');
  const testRun = asNode(run);

  const definitions = new Map<string, { assembly: string | null; className: string | null; method: string | null }>();
  for (const unitTest of asArray(asNode(testRun.TestDefinitions).UnitTest)) {
    const method = asNode(unitTest.TestMethod);
    const assembly = (method.codeBase as string | undefined) ?? (unitTest.storage as string | undefined) ?? null;
    const className = typeof method.className === 'string' ? decodeXmlText(method.className) : null;
    if (typeof unitTest.id === 'string') definitions.set(unitTest.id, { assembly, className, method: typeof method.name === 'string' ? decodeXmlText(method.name) : null });
  }

  const counters = emptyCounters();
  const results: TrxTestResult[] = [];
  for (const result of asArray(asNode(testRun.Results).UnitTestResult)) {
    const outcome = typeof result.outcome === 'string' ? result.outcome : 'Unknown';
    counters.total++;
    if (passedOutcomes.has(outcome)) counters.passed++;
    else if (failedOutcomes.has(outcome)) counters.failed++;
    else if (skippedOutcomes.has(outcome)) counters.skipped++;
    else counters.other++;
    const errorInfo = asNode(asNode(result.Output).ErrorInfo);
    const definition = typeof result.testId === 'string' ? definitions.get(result.testId) : undefined;
    const testName = decodeXmlText(String(result.testName ?? ''));
    results.push({
      name: qualified(testName, definition?.className ?? null, definition?.method ?? null),
      outcome,
      message: text(errorInfo.Message).trim(),
      stackTrace: text(errorInfo.StackTrace).trim(),
      assembly: definition?.assembly ?? null,
    });
  }

  const summary = asNode(testRun.ResultSummary);
  const runInfos = asArray(asNode(summary.RunInfos).RunInfo);
  // xUnit echoes each failing test as an Error RunInfo ("[xUnit.net 00:00:02.28]     Name [FAIL]"): that is the
  // ordinary failure the results already report, not a problem of the test run.
  const runErrors = runInfos
    .filter((info) => info.outcome === 'Error' || info.outcome === 'Failed')
    .map((info) => text(info.Text).trim())
    .filter((message) => !/^\[xUnit\.net [^\]]*\]\s+\S.*\[FAIL\]$/.test(message))
    // MTP's TRX echoes exit code 2 ("at least one test failed") as an Error RunInfo: the failed results already say it.
    .filter((message) => !(counters.failed > 0 && /^Exit code indicates failure: '2'\./.test(message)));
  const zeroTestsExitCode = counters.total === 0 && runInfos.some((info) => /exit code 8\b|zero tests ran/i.test(text(info.Text)));
  return {
    counters,
    results,
    summaryOutcome: typeof summary.outcome === 'string' ? summary.outcome : null,
    runErrors: zeroTestsExitCode ? [] : runErrors,
    zeroTestsExitCode,
  };
}
