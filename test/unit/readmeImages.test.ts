// The package README's images (scripts/package.mjs readmeImages): linked at an https: --images-url, which
// every supported VS Code's details page shows, or inlined as data: URIs without one (shown only up to
// VS Code 1.102); nothing else gets through. The rendering itself: test/package/readmeImages.smoke.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('the package README\'s images (scripts/package.mjs)', () => {
  let docs: string;
  let readmeImages: (markdown: string, baseDir: string, imagesUrl?: string) => string;

  before(async () => {
    ({ readmeImages } = await importEsm(path.join(repoRoot, 'scripts', 'package.mjs')));
    docs = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-readme-images-'));
    fs.mkdirSync(path.join(docs, 'shots'));
    fs.writeFileSync(path.join(docs, 'shots', 'sidebar.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    fs.writeFileSync(path.join(docs, 'logo.svg'), '<svg/>');
  });

  after(() => fs.rmSync(docs, { recursive: true, force: true }));

  it('links each relative image at the https: address, by its path in docs/', () => {
    const markdown = 'Text ![The sidebar](shots/sidebar.jpg) and ![kept](https://example.com/a.png).';
    assert.equal(
      readmeImages(markdown, docs, 'https://images.example.com/repo/docs/'),
      'Text ![The sidebar](https://images.example.com/repo/docs/shots/sidebar.jpg) and ![kept](https://example.com/a.png).',
    );
  });

  it('inlines them as data: URIs without an address', () => {
    assert.equal(readmeImages('![The sidebar](shots/sidebar.jpg)', docs), '![The sidebar](data:image/jpeg;base64,/9j/2Q==)');
  });

  it('refuses an address that is not https:, an SVG and a missing file, naming each', () => {
    assert.throws(() => readmeImages('![a](shots/sidebar.jpg)', docs, 'http://images.example.com/docs'), /--images-url http:\/\/images\.example\.com\/docs: .*only https: images/);
    assert.throws(() => readmeImages('![a](logo.svg)', docs, 'https://images.example.com/docs'), /image logo\.svg must be a PNG or JPEG/);
    assert.throws(() => readmeImages('![a](gone.png)', docs, 'https://images.example.com/docs'), /image gone\.png does not exist/);
  });
});
