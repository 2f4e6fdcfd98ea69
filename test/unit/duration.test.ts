// scripts/duration.mjs: the durations scripts/test.mjs prints in its progress lines and summary table.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<{ minutes(seconds: number): string }>;

describe('test run durations', () => {
  it('rounds once, so a remainder that rounds up carries into the minutes', async () => {
    const { minutes } = await importEsm(path.join(repoRoot, 'scripts', 'duration.mjs'));
    assert.deepEqual(
      [239.6, 59.7, 125, 3600.4, 42.4, 9.94].map(minutes),
      ['4 min 00 s', '1 min 00 s', '2 min 05 s', '60 min 00 s', '42 s', '9.9 s'],
    );
  });
});
