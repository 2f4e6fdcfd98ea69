// A strict, small XML reader for the test results the verifier reads (TRX). One pass over the
// text: it checks well-formedness as it builds the element tree, rejects any DTD, and decodes only
// XML's five predefined entities and character references — nothing can expand. Namespace
// prefixes are dropped from element and attribute names (a TRX has one default namespace). It
// replaced a general parser's separate validation and parse passes: 0.14 s on a 1.3 MB TRX of
// 957 results, read after the last test ends on every verify.

export class XmlError extends Error {
  constructor(
    message: string,
    readonly line: number,
    /** The document declares a DTD (never read), rather than being malformed. */
    readonly dtd = false,
  ) {
    super(`${message} (line ${line})`);
    this.name = 'XmlError';
  }
}

export interface XmlElement {
  /** The local name (a prefix is dropped). */
  name: string;
  /** Attribute values by local name, references decoded. */
  attributes: Map<string, string>;
  children: XmlElement[];
  /** The element's own character data (text and CDATA, in order), references decoded. */
  text: string;
}

// XML's Name production, close enough for documents a test framework writes: a start character, then name characters.
const name = /[A-Za-z_:\u00C0-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD][\w.\-:\u00B7\u00C0-\u02FF\u0300-\u037D\u037F-\u1FFF\u200C-\u200D\u203F-\u2040\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD]*/y;
const reference = /&(?:(lt|gt|amp|quot|apos)|#([0-9]+)|#x([0-9a-fA-F]+));/y;
const predefined: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const localName = (qualified: string) => qualified.slice(qualified.indexOf(':') + 1);
// The ASCII names every TRX uses, read without a regular expression (most of the reading time); any other goes through `name`.
const isAsciiNameStart = (code: number) => (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f || code === 0x3a;
const isAsciiNameChar = (code: number) => isAsciiNameStart(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e;
const isWhitespace = (code: number) => code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;
const isXmlChar = (code: number) => code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);

/** Reads a whole document and returns its root element; throws XmlError naming the first problem and its line. */
export function readXml(source: string): XmlElement {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const fail = (message: string, at: number, dtd = false): never => {
    let line = 1;
    for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
    throw new XmlError(message, line, dtd);
  };

  /** Decodes the references of a text or attribute value that starts at `at`; any other `&` is an error. */
  const decode = (raw: string, at: number): string => {
    if (!raw.includes('&')) return raw;
    let decoded = '';
    let from = 0;
    for (let amp = raw.indexOf('&'); amp !== -1; amp = raw.indexOf('&', from)) {
      reference.lastIndex = amp;
      const match = reference.exec(raw);
      if (!match) fail('an "&" that starts no predefined entity or character reference (a DTD entity is never read)', at + amp);
      const [whole, entity, decimal, hex] = match!;
      let value: string;
      if (entity) value = predefined[entity]!;
      else {
        const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex!, 16);
        if (!isXmlChar(code)) fail(`a character reference to a character XML does not allow (${whole})`, at + amp);
        value = String.fromCodePoint(code);
      }
      decoded += raw.slice(from, amp) + value;
      from = amp + whole.length;
    }
    return decoded + raw.slice(from);
  };

  const readName = (at: number, what: string): string => {
    let end = at;
    if (isAsciiNameStart(text.charCodeAt(end))) while (isAsciiNameChar(text.charCodeAt(++end)));
    if (end > at && text.charCodeAt(end) < 0x80) return text.slice(at, end);
    name.lastIndex = at;
    const match = name.exec(text);
    if (!match) fail(`expected ${what}`, at);
    return match![0];
  };
  const skipWhitespace = (at: number): number => {
    let end = at;
    while (isWhitespace(text.charCodeAt(end))) end++;
    return end;
  };

  const open: { element: XmlElement; qualified: string }[] = [];
  let root: XmlElement | null = null;
  let position = 0;
  while (position < text.length) {
    const lt = text.indexOf('<', position);
    const end = lt === -1 ? text.length : lt;
    if (end > position) {
      const chunk = text.slice(position, end);
      const parent = open.at(-1)?.element;
      if (!parent) {
        const stray = chunk.search(/[^ \t\r\n]/);
        if (stray !== -1) fail(root ? 'text after the root element' : 'text before the root element', position + stray);
      } else {
        if (chunk.includes(']]>')) fail('"]]>" in text', position + chunk.indexOf(']]>'));
        parent.text += decode(chunk, position);
      }
    }
    if (lt === -1) break;

    const next = text.charCodeAt(lt + 1);
    if (next === 0x2f /* / */) {
      const qualified = readName(lt + 2, 'an element name after "</"');
      const close = skipWhitespace(lt + 2 + qualified.length);
      if (text[close] !== '>') fail(`expected ">" to end </${qualified}`, close);
      const top = open.pop();
      if (!top) fail(`</${qualified}> closes no open element`, lt);
      if (top!.qualified !== qualified) fail(`</${qualified}> where </${top!.qualified}> was expected`, lt);
      position = close + 1;
    } else if (next === 0x21 /* ! */) {
      if (text.startsWith('<!--', lt)) {
        const close = text.indexOf('-->', lt + 4);
        if (close === -1) fail('a comment that never ends', lt);
        if (text.slice(lt + 4, close).includes('--')) fail('"--" inside a comment', lt);
        position = close + 3;
      } else if (text.startsWith('<![CDATA[', lt)) {
        const parent = open.at(-1)?.element;
        if (!parent) fail('a CDATA section outside the root element', lt);
        const close = text.indexOf(']]>', lt + 9);
        if (close === -1) fail('a CDATA section that never ends', lt);
        parent!.text += text.slice(lt + 9, close);
        position = close + 3;
      } else if (/^<!DOCTYPE/i.test(text.slice(lt, lt + 9))) {
        fail('a DTD (<!DOCTYPE), which is never read', lt, true);
      } else {
        fail('markup that is not a comment or a CDATA section after "<!"', lt);
      }
    } else if (next === 0x3f /* ? */) {
      const target = readName(lt + 2, 'a processing instruction target after "<?"');
      if (target.toLowerCase() === 'xml' && lt !== 0) fail('an XML declaration that is not at the start of the document', lt);
      const close = text.indexOf('?>', lt + 2 + target.length);
      if (close === -1) fail('a processing instruction that never ends', lt);
      position = close + 2;
    } else {
      const qualified = readName(lt + 1, 'an element name after "<"');
      const element: XmlElement = { name: localName(qualified), attributes: new Map(), children: [], text: '' };
      const seen = new Set<string>();
      let at = lt + 1 + qualified.length;
      for (;;) {
        const afterSpace = skipWhitespace(at);
        if (text[afterSpace] === '>' || text.startsWith('/>', afterSpace)) {
          at = afterSpace;
          break;
        }
        if (afterSpace === at) fail(afterSpace >= text.length ? `<${qualified} never ends` : `expected whitespace, ">" or "/>" in <${qualified}`, afterSpace);
        const attribute = readName(afterSpace, `an attribute name, ">" or "/>" in <${qualified}`);
        if (seen.has(attribute)) fail(`attribute ${attribute} given twice in <${qualified}`, afterSpace);
        seen.add(attribute);
        const equals = skipWhitespace(afterSpace + attribute.length);
        if (text[equals] !== '=') fail(`expected "=" after attribute ${attribute}`, equals);
        const quoteAt = skipWhitespace(equals + 1);
        const quote = text[quoteAt];
        if (quote !== '"' && quote !== "'") fail(`expected a quoted value for attribute ${attribute}`, quoteAt);
        const close = text.indexOf(quote!, quoteAt + 1);
        if (close === -1) fail(`the value of attribute ${attribute} never ends`, quoteAt);
        const raw = text.slice(quoteAt + 1, close);
        if (raw.includes('<')) fail(`"<" in the value of attribute ${attribute}`, quoteAt);
        element.attributes.set(localName(attribute), decode(raw, quoteAt + 1));
        at = close + 1;
      }
      const parent = open.at(-1)?.element;
      if (parent) parent.children.push(element);
      else if (root) fail('a second root element', lt);
      else root = element;
      if (text[at] === '>') {
        open.push({ element, qualified });
        position = at + 1;
      } else {
        position = at + 2;
      }
    }
  }
  if (open.length > 0) fail(`<${open.at(-1)!.qualified}> is never closed`, text.length);
  if (!root) fail('no root element', text.length);
  return root!;
}

/** The first child element named `name`, or undefined. */
export const childNamed = (element: XmlElement | undefined, name: string): XmlElement | undefined => element?.children.find((child) => child.name === name);

/** Every child element named `name`. */
export const childrenNamed = (element: XmlElement | undefined, name: string): XmlElement[] => element?.children.filter((child) => child.name === name) ?? [];
