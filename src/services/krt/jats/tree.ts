// A small element tree over saxes. Text nodes sit in `children` in document order, so text after an inline
// element (the "tail", as in `<italic>E. coli</italic> strain K-12`) is never lost.
// Safety: prepareXml() removes the DOCTYPE and decodes references first, and saxes never fetches or reads
// anything on its own, so neither DTDs nor external entities can cause file or network access.

import { SaxesParser } from 'saxes';
import { prepareXml } from './entities.ts';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

export class XmlParseError extends Error {
  override readonly name = 'XmlParseError';
}

export function isElement(node: XmlNode): node is XmlElement {
  return typeof node !== 'string';
}

/** Parses an XML document (string) into an element tree; throws XmlParseError when it is not well-formed. */
export function parseXml(xml: string, fileName?: string): XmlElement {
  const source = prepareXml(xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml);
  const parser = new SaxesParser({ xmlns: false, position: true, fileName });
  const root: XmlElement = { name: '#document', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  let failure: Error | null = null;
  parser.on('error', (err) => {
    failure ??= err;
  });
  parser.on('opentag', (tag) => {
    const element: XmlElement = { name: tag.name, attrs: tag.attributes as Record<string, string>, children: [] };
    stack[stack.length - 1].children.push(element);
    if (!tag.isSelfClosing) stack.push(element);
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) stack.pop();
  });
  const addText = (text: string) => {
    const top = stack[stack.length - 1];
    if (top === root) return; // whitespace between prolog items
    const last = top.children[top.children.length - 1];
    if (typeof last === 'string') top.children[top.children.length - 1] = last + text;
    else top.children.push(text);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  try {
    parser.write(source).close();
  } catch (err) {
    failure ??= err as Error;
  }
  if (failure) throw new XmlParseError(`XML is not well-formed: ${(failure as Error).message}`);
  const documentElement = root.children.find(isElement);
  if (!documentElement) throw new XmlParseError('XML has no root element');
  return documentElement;
}

// Elements rendered inside the running text. Everything else is a block: its text is separated from its
// neighbours by a space, so "<td>a</td><td>b</td>" reads "a b", while "<sup>2+</sup>" stays glued to "Ca".
const INLINE = new Set([
  'italic',
  'bold',
  'sup',
  'sub',
  'sc',
  'underline',
  'overline',
  'strike',
  'monospace',
  'roman',
  'sans-serif',
  'xref',
  'ext-link',
  'uri',
  'email',
  'named-content',
  'styled-content',
  'abbrev',
  'inline-formula',
  'inline-graphic',
  'private-char',
  'span',
  'font',
  'target',
  'ruby',
  'num',
  'alternatives',
]);
// Elements whose text is never prose (duplicated TeX of a formula, MathML annotations, object ids).
const SKIPPED = new Set(['tex-math', 'mml:annotation', 'mml:annotation-xml', 'object-id']);

export interface TextOptions {
  /** Element names (besides the built-in ones) whose content is left out, e.g. 'xref' or 'table-wrap'. */
  skip?: ReadonlySet<string>;
}

/** Text of a node with block boundaries turned into single spaces and whitespace collapsed. */
export function textOf(node: XmlNode | undefined, options: TextOptions = {}): string {
  if (node === undefined) return '';
  const parts: string[] = [];
  collectText(node, parts, options.skip);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

function collectText(node: XmlNode, parts: string[], skip: ReadonlySet<string> | undefined): void {
  if (typeof node === 'string') {
    parts.push(node);
    return;
  }
  if (SKIPPED.has(node.name) || skip?.has(node.name)) return;
  if (node.name === 'break') {
    parts.push(' ');
    return;
  }
  if (node.name.startsWith('mml:')) {
    // MathML: text of token elements only, no separators between tokens (x<sub>i</sub>, 10^-3).
    for (const child of node.children) collectText(child, parts, skip);
    return;
  }
  if (node.name === 'alternatives') {
    // Several renderings of one thing: keep the first that yields text.
    for (const child of node.children) {
      const sub: string[] = [];
      collectText(child, sub, skip);
      if (sub.join('').trim()) {
        parts.push(...sub);
        break;
      }
    }
    return;
  }
  const superscriptLink =
    node.name === 'xref' &&
    node.children.length === 1 &&
    typeof node.children[0] !== 'string' &&
    node.children[0].name === 'sup' &&
    /^[\s\d,–—-]*$/.test(textOf(node.children[0]));
  if ((node.name === 'sup' && isCitationMark(node)) || superscriptLink) {
    // "Gulati et al. 2020<sup>42</sup>" and "ab290<sup>12</sup>": the mark is not part of the words it
    // follows, and gluing it on would forge a year "202042" or a catalog number "ab29012".
    parts.push(' ');
    return;
  }
  const block = !INLINE.has(node.name);
  if (block) parts.push(' ');
  for (const child of node.children) collectText(child, parts, skip);
  if (block) parts.push(' ');
}

/** A superscript holding only reference/footnote links with numbers or symbols: a citation mark. */
function isCitationMark(sup: XmlElement): boolean {
  let hasXref = false;
  for (const child of sup.children) {
    if (typeof child === 'string') {
      if (!/^[\s\d,–—\-;()[\]]*$/.test(child)) return false;
    } else if (child.name === 'xref' && /^(bibr|fn|table-fn|other)$/.test(child.attrs['ref-type'] ?? 'bibr')) {
      hasXref = true;
    } else if (child.name === 'italic' || child.name === 'bold') {
      if (!isCitationMark(child) && textOf(child).trim()) return false;
    } else {
      return false;
    }
  }
  return hasXref;
}

/** Child elements, optionally of one name. */
export function childElements(element: XmlElement, name?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of element.children) {
    if (typeof child !== 'string' && (name === undefined || child.name === name)) out.push(child);
  }
  return out;
}

export function firstChild(element: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!element) return undefined;
  for (const child of element.children) if (typeof child !== 'string' && child.name === name) return child;
  return undefined;
}

/** Depth-first, document-order search. `descend` decides whether to look inside a matching element. */
export function findAll(root: XmlElement, match: (el: XmlElement) => boolean, descendIntoMatches = false): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (el: XmlElement) => {
    for (const child of el.children) {
      if (typeof child === 'string') continue;
      const hit = match(child);
      if (hit) out.push(child);
      if (!hit || descendIntoMatches) walk(child);
    }
  };
  walk(root);
  return out;
}

export function findFirst(root: XmlElement, match: (el: XmlElement) => boolean): XmlElement | undefined {
  for (const child of root.children) {
    if (typeof child === 'string') continue;
    if (match(child)) return child;
    const inner = findFirst(child, match);
    if (inner) return inner;
  }
  return undefined;
}

/** Follows a path of element names from `root` (each step: first child with that name). */
export function pathOf(root: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let here = root;
  for (const name of names) here = firstChild(here, name);
  return here;
}
