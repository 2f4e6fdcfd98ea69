// What an agent is really sent (issue 38): every default MCP tool, through the official client over
// stdio against `node dist/cli.js mcp` and the real Roslyn host, on a restored copy of
// fixtures/AnswerBudget — eight analyzer packages in every project (each excluded, with its path in
// the package cache), five target frameworks, long names, 24 implementations and 60 call sites. Each
// whole CallToolResult as JSON (text, structuredContent, metadata) stays under 8 KB, carries no
// absolute path outside the workspace, and where a page was cut the text and the structure say the
// same next offset. tools/list of the default set stays under 16 KB.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { cleanUpCopies, copyFixture, tempStateRoot } from '../support';
import { callOptions, connect, text, type CallResult } from './mcpClient';

const core = 'src/AnswerBudget.Core.Infrastructure.DistributedTransactions';
const validate = 'DistributedTransactionCoordinatorConfigurationValidationService.ValidateEveryConfigurationSectionOfTheDistributedTransactionCoordinator';
const strategy = 'IDistributedTransactionCoordinatorConfigurationValidationStrategy';

/** Absolute paths in serialized JSON (POSIX, and Windows drive paths with escaped backslashes) that are not below `workspace`. */
function pathsOutside(serialized: string, workspace: string): string[] {
  const unescaped = serialized.replace(/\\\\/g, '\\');
  const found = unescaped.match(/(?<![\w.])(?:\/(?:home|root|Users|tmp|usr|opt|var|private)\/[^\s"',;)]*|[A-Za-z]:\\[^\s"',;)]*)/g) ?? [];
  const real = fs.realpathSync(workspace);
  return found.filter((candidate) => !candidate.startsWith(workspace) && !candidate.startsWith(real));
}

describe('sharpclaw mcp: every default tool answers under 8 KB whole, with no path outside the workspace (fixtures/AnswerBudget)', function () {
  this.timeout(900_000);
  let client: Client;
  let workspace: string;
  const sizes: string[] = [];

  before(async () => {
    workspace = copyFixture('AnswerBudget', 'AnswerBudget.slnx');
    ({ client } = await connect({ workspace, stateDir: tempStateRoot(), flags: ['--allow-evaluation'] }));
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await cleanUpCopies();
    if (process.env.SHARPCLAW_PRINT_SIZES) console.log(sizes.join('\n'));
  });

  /** Calls `name` and checks the whole result; returns it. */
  async function call(name: string, args: Record<string, unknown>, expectError = false): Promise<CallResult> {
    const result = await client.callTool({ name, arguments: args }, callOptions);
    const serialized = JSON.stringify(result);
    const bytes = Buffer.byteLength(serialized);
    sizes.push(`${name} ${JSON.stringify(args)}: ${bytes} B whole, ${Buffer.byteLength(text(result))} B text`);
    assert.equal(result.isError === true, expectError, text(result));
    assert.ok(bytes < 8 * 1024, `${name} ${JSON.stringify(args)}: the whole result is ${bytes} bytes (text ${Buffer.byteLength(text(result))}):\n${serialized.slice(0, 600)}`);
    assert.deepEqual(pathsOutside(serialized, workspace), [], `${name} ${JSON.stringify(args)} carries paths outside the workspace`);
    return result;
  }

  /** The next offset a text's truncated: line gives, and the structure's. */
  function nextOffsets(result: CallResult): { text: number | null; structure: unknown } {
    const match = /next offset: (\d+)/.exec(text(result));
    return { text: match ? Number(match[1]) : null, structure: (result.structuredContent as { nextOffset?: unknown } | undefined)?.nextOffset ?? null };
  }

  it('tools/list of the default tools stays under 16 KB', async () => {
    const list = await client.listTools();
    const bytes = Buffer.byteLength(JSON.stringify(list));
    sizes.push(`tools/list: ${bytes} B`);
    assert.equal(list.tools.length, 8);
    assert.ok(bytes < 16 * 1024, `tools/list is ${bytes} bytes`);
  });

  it('navigate: references, implementation and callers page within the budget, text and structure agreeing', async () => {
    const references = await call('navigate', { action: 'references', symbol: validate });
    assert.match(text(references), /^excluded: \d+ project\/package analyzer/m);
    const structured = references.structuredContent as { excludedAnalyzers: { analyzers: number; fullList: string } | null; locations: unknown[] };
    assert.ok(structured.excludedAnalyzers && structured.excludedAnalyzers.analyzers >= 8, JSON.stringify(structured.excludedAnalyzers));
    assert.equal(structured.excludedAnalyzers.fullList, 'dotnet_solution_inspect');

    // 24 implementations in long paths: the page ends where text and structure fit, and both say where the next starts.
    const implementation = await call('navigate', { action: 'implementation', symbol: strategy });
    const page = nextOffsets(implementation);
    assert.match(text(implementation), /DistributedTransactionCoordinatorValidationStrategyNumber01\.cs 3:21$/m);
    assert.equal(page.structure, page.text);
    if (page.text !== null) assert.equal((implementation.structuredContent as { locations: unknown[] }).locations.length, page.text);

    // 60 call sites in 36 consumers and 24 strategies, each a long name: past 8 KB in one page of 50.
    const callers = await call('navigate', { action: 'callers', symbol: validate });
    const first = nextOffsets(callers);
    assert.ok(first.text !== null, `callers has no truncated: line:\n${text(callers)}`);
    assert.equal(first.structure, first.text, 'the structure says the same next offset as the text');
    assert.equal((callers.structuredContent as { related: unknown[] }).related.length, first.text);
    const second = await call('navigate', { action: 'callers', symbol: validate, offset: first.text });
    assert.match(text(second), /method /);
    for (const action of ['definition', 'hover', 'members', 'source', 'impact', 'subtypes']) await call('navigate', { action, symbol: action === 'subtypes' || action === 'members' ? strategy : validate });
  });

  it('diagnostics, symbols, bulk_navigate, edit preview, lsp status and verify_workspace stay within the budget', async () => {
    const diagnostics = await call('diagnostics', { severity: 'warning' });
    assert.match(text(diagnostics), /CS0168/);
    const offsets = nextOffsets(diagnostics);
    assert.equal(offsets.structure, offsets.text);
    await call('diagnostics', { severity: 'warning', summary: true });
    await call('diagnostics', { file: `${core}/Strategies/DistributedTransactionCoordinatorValidationStrategyNumber01.cs` });
    const symbols = await call('symbols', { query: 'Number' });
    assert.equal(nextOffsets(symbols).structure, nextOffsets(symbols).text);
    await call('symbols', { file: 'OrderProcessingConsumerOfTheValidationServiceNumber01.cs' });
    await call('bulk_navigate', { queries: Array.from({ length: 6 }, (_, i) => ({ action: i % 2 ? 'references' : 'callers', symbol: validate })) });
    await call('edit', { action: 'rename', symbol: validate, newName: 'ValidateEverySection' });
    await call('lsp', { action: 'status' });
    // No --allow-shell: the refusal is the answer, and it too is measured.
    await call('verify_workspace', { scope: 'build' }, true);
  });

  it('dotnet_solution_inspect: the full analyzer list, paged, with no package-cache path', async () => {
    const inspected = await call('dotnet_solution_inspect', {});
    assert.match(text(inspected), /StyleCop\.Analyzers/);
    const structure = inspected.structuredContent as { projects: Array<{ path: string; targetFrameworks: string[] }>; excludedAnalyzers: unknown[]; nextOffset: number | null };
    const coreProject = structure.projects.find((project) => project.path.startsWith(core));
    assert.deepEqual(coreProject?.targetFrameworks, ['net10.0', 'net8.0', 'net6.0', 'netstandard2.1', 'netstandard2.0']);
    assert.equal(nextOffsets(inspected).structure, nextOffsets(inspected).text);
    if (structure.nextOffset !== null) await call('dotnet_solution_inspect', { offset: structure.nextOffset });
    assert.ok(!path.isAbsolute(coreProject?.path ?? '/'), 'project paths are workspace-relative');
  });
});
