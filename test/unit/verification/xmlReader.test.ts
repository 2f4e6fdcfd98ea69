// The strict XML reader the verifier reads TRX files with: what it reads, every kind of malformed
// document it rejects (with the line), that it never reads a DTD or expands an entity, and that every
// TRX recorded from a real run reads as a well-formed document a general validator also accepts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { childNamed, childrenNamed, readXml, XmlError } from '../../../src/engine/verification/xmlReader';

const recorded = path.resolve(__dirname, '../../../../test/unit/verification/recorded');
const recordedTrx = fs.readdirSync(recorded, { recursive: true }).map(String).filter((file) => file.endsWith('.trx')).map((file) => path.join(recorded, file));

function rejects(document: string, problem: RegExp, line = 1): XmlError {
  try {
    readXml(document);
  } catch (error) {
    assert.ok(error instanceof XmlError, `an XmlError for ${JSON.stringify(document)}`);
    assert.match(error.message, problem);
    assert.equal(error.line, line, `the line of ${JSON.stringify(document)}`);
    return error;
  }
  assert.fail(`read without an error: ${JSON.stringify(document)}`);
}

describe('verification: the strict XML reader', () => {
  it('reads elements, both quote styles, prefixes, text, CDATA, comments and processing instructions', () => {
    const root = readXml(
      '\uFEFF<?xml version="1.0" encoding="utf-8"?>\n<!-- a run -->\n<t:TestRun xmlns:t="urn:x" t:id=\'1\' name = "a &amp; b &#65;&#x42;">'
        + '<Results><R n="1"/><R n="2" ></R><Other/></Results>'
        + '<Message>1 &lt; 2 <![CDATA[<raw> &amp;]]> &gt; 0</Message><?pi data?></t:TestRun>\n',
    );
    assert.equal(root.name, 'TestRun');
    assert.equal(root.attributes.get('id'), '1');
    assert.equal(root.attributes.get('name'), 'a & b AB');
    assert.deepEqual(childrenNamed(childNamed(root, 'Results'), 'R').map((r) => r.attributes.get('n')), ['1', '2']);
    assert.equal(childNamed(root, 'Message')?.text, '1 < 2 <raw> &amp; > 0', 'CDATA stays as written; only references outside it are decoded');
    assert.equal(childNamed(root, 'Missing'), undefined);
    assert.deepEqual(childrenNamed(undefined, 'R'), []);
  });

  it('rejects each kind of malformed document, naming the problem and its line', () => {
    rejects('<a><b></a>', /<\/a> where <\/b> was expected/);
    rejects('<a>\n<b>\n', /<b> is never closed/, 3);
    rejects('<a></a></b>', /closes no open element/);
    rejects('<a x="1" x="2"/>', /attribute x given twice/);
    rejects('<a x=1/>', /quoted value for attribute x/);
    rejects('<a x="1"y="2"/>', /expected whitespace/);
    rejects('<a x="1/>', /never ends/);
    rejects('<a x="<"/>', /"<" in the value of attribute x/);
    rejects('<a>\nR&D</a>', /an "&" that starts no predefined entity/, 2);
    rejects('<a>&nbsp;</a>', /an "&" that starts no predefined entity/);
    rejects('<a x="&x;"/>', /an "&" that starts no predefined entity/);
    rejects('<a>&#0;</a>', /character reference to a character XML does not allow/);
    rejects('<a>]]></a>', /"\]\]>" in text/);
    rejects('text<a/>', /text before the root element/);
    rejects('<a/>\ntext', /text after the root element/, 2);
    rejects('<a/><b/>', /a second root element/);
    rejects('<!-- only a comment -->', /no root element/);
    rejects('', /no root element/);
    rejects('<a><!-- x -- y --></a>', /"--" inside a comment/);
    rejects('<a><!-- never', /comment that never ends/);
    rejects('<a><![CDATA[ never</a>', /CDATA section that never ends/);
    rejects('<![CDATA[x]]><a/>', /CDATA section outside the root element/);
    rejects('<a><?pi never</a>', /processing instruction that never ends/);
    rejects('<a/>\n<?xml version="1.0"?>', /XML declaration that is not at the start/, 2);
    rejects('<a><!ELEMENT a ANY></a>', /not a comment or a CDATA section/);
    rejects('<1a/>', /expected an element name/);
    rejects('<a', /<a never ends/);
  });

  it('never reads a DTD, so no entity can expand', () => {
    const error = rejects('<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x "boom">]>\n<a>&x;</a>', /DTD/, 2);
    assert.equal(error.dtd, true);
    assert.equal(rejects('<a>&x;</a>', /no predefined entity/).dtd, false);
  });

  it('reads every TRX recorded from a real run, as a general validator does, and rejects each of its truncations', () => {
    assert.ok(recordedTrx.length >= 10, `recorded TRX files found: ${recordedTrx.length}`);
    for (const file of recordedTrx) {
      const text = fs.readFileSync(file, 'utf8');
      assert.equal(XMLValidator.validate(text.replace(/^\uFEFF/, '')), true, file);
      assert.equal(readXml(text).name, 'TestRun', file);
      const end = text.lastIndexOf('</');
      for (let cut = text.indexOf('<TestRun') + 1; cut < end; cut += Math.max(1, Math.floor(end / 40))) {
        assert.throws(() => readXml(text.slice(0, cut)), XmlError, `${path.basename(file)} cut at ${cut}`);
      }
    }
  });
});
