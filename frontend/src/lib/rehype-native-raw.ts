/**
 * The raw HTML of Markdown (a lesson's `<details>` answers, a drawn diagram's SVG) parsed into
 * the tree by the browser's own HTML parser: rehype-raw's job, without shipping a second HTML
 * parser (parse5 and its entity tables were half of the Markdown pipeline's 100 kB on every
 * lesson's first load).
 *
 * rehype-raw feeds the tree to parse5 node by node: each element as a start and an end tag,
 * each text as characters, each `raw` node through the tokenizer. Here the same stream is
 * written out as one HTML string, which the browser parses as parse5 did (a fragment in a
 * `<template>`, in a document with no scripting, as rehype-raw's parser is set up), and the DOM
 * is read back into hast the way hast-util-from-parse5 reads parse5's tree. Both parsers follow
 * the HTML standard, so the tree is the same (rehype-native-raw.test.ts holds the two to it).
 * One difference remains, for HTML no lesson may contain: a raw node that leaves a tag or an
 * attribute open runs into what follows it, as it would in a browser, where rehype-raw cut it
 * off at the next Markdown node. Positions are not kept: nothing after this step reads them.
 */
import type { Element, ElementContent, Nodes, Properties, Root, RootContent } from 'hast';
import { h, s } from 'hastscript';
import { find, html as htmlSchema, svg as svgSchema, type Schema } from 'property-information';

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';
const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

/** Elements with no end tag, which rehype-raw never closes either (html-void-elements). */
const VOID_ELEMENTS = new Set([
  'area', 'base', 'basefont', 'bgsound', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'image',
  'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]);

// ───────────────────────────── hast → HTML ─────────────────────────────

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/** One property as the attribute rehype-raw hands parse5 (hast-util-to-parse5's rules), or
 *  null when it has none. */
function attribute(schema: Schema, property: string, value: Properties[string]): string | null {
  const info = find(schema, property);
  if (value === false || value === null || value === undefined) return null;
  if ((typeof value === 'number' && Number.isNaN(value)) || (!value && info.boolean)) return null;
  const text = Array.isArray(value)
    ? info.commaSeparated
      ? commaList(value.map(String))
      : value.join(' ').trim()
    : value === true
      ? ''
      : String(value);
  return `${info.attribute}="${escapeAttribute(text)}"`;
}

/** comma-separated-tokens' stringify: a last empty entry is kept. */
function commaList(values: string[]): string {
  const all = values[values.length - 1] === '' ? [...values, ''] : values;
  return all.join(', ').trim();
}

function startTag(node: Element, schema: Schema): string {
  const attributes = Object.entries(node.properties)
    .filter(([name]) => name !== 'children')
    .map(([name, value]) => attribute(schema, name, value))
    .filter((a) => a !== null);
  return `<${node.tagName}${attributes.map((a) => ` ${a}`).join('')}>`;
}

function serialize(node: Nodes | { type: 'raw'; value: string }, schema: Schema): string {
  switch (node.type) {
    case 'root':
      return node.children.map((child) => serialize(child, schema)).join('');
    case 'element': {
      // An <svg> in HTML switches to SVG's attribute names, as rehype-raw's start tags do.
      const inner = node.tagName.toLowerCase() === 'svg' && schema.space === 'html' ? svgSchema : schema;
      const children = node.children.map((child) => serialize(child, inner)).join('');
      const end = VOID_ELEMENTS.has(node.tagName.toLowerCase()) && inner.space === 'html' ? '' : `</${node.tagName}>`;
      return `${startTag(node, inner)}${children}${end}`;
    }
    case 'text':
      return escapeText(node.value);
    case 'comment':
      return `<!--${node.value}-->`;
    case 'doctype':
      return '<!doctype html>';
    case 'raw':
      return node.value;
    default:
      throw new Error(`Cannot compile \`${(node as { type: string }).type}\` node`);
  }
}

// ───────────────────────────── DOM → hast ─────────────────────────────

/** A DOM node as hast-util-from-parse5 makes parse5's node of it. */
function fromDom(node: Node): RootContent | null {
  switch (node.nodeType) {
    case Node.ELEMENT_NODE:
      return fromElement(node as globalThis.Element);
    case Node.TEXT_NODE:
      return { type: 'text', value: node.nodeValue ?? '' };
    case Node.COMMENT_NODE:
      return { type: 'comment', value: node.nodeValue ?? '' };
    case Node.DOCUMENT_TYPE_NODE:
      return { type: 'doctype' };
    default:
      return null;
  }
}

function childrenOf(parent: Node): ElementContent[] {
  return [...parent.childNodes].map(fromDom).filter((c): c is ElementContent => c !== null);
}

function fromElement(element: globalThis.Element): Element {
  const properties: Record<string, string> = {};
  for (const { name, value } of element.attributes) {
    // As hast-util-from-parse5 does: an attribute named like an Object method is dropped.
    if (!Object.prototype.hasOwnProperty.call(Object.prototype, name)) properties[name] = value;
  }
  const create = element.namespaceURI === SVG_NAMESPACE ? s : h;
  if (element.namespaceURI === HTML_NAMESPACE && element.localName === 'template') {
    const result = create('template', properties);
    result.content = { type: 'root', children: childrenOf((element as HTMLTemplateElement).content), data: { quirksMode: false } };
    return result;
  }
  return create(element.localName, properties, childrenOf(element));
}

// ───────────────────────────── the plugin ─────────────────────────────

/** A document without scripting, like rehype-raw's parser: `<noscript>` holds markup. */
let inert: Document | null = null;

function parseFragment(markup: string): Root {
  inert ??= document.implementation.createHTMLDocument('');
  const template = inert.createElement('template');
  template.innerHTML = markup;
  return { type: 'root', children: childrenOf(template.content), data: { quirksMode: false } };
}

function parseDocument(markup: string): Root {
  const parsed = new DOMParser().parseFromString(markup, 'text/html');
  const children = [...parsed.childNodes].map(fromDom).filter((c): c is RootContent => c !== null);
  return { type: 'root', children, data: { quirksMode: parsed.compatMode === 'BackCompat' } };
}

/** Whether rehype-raw would parse the tree as a whole document (it starts with a doctype or <html>). */
function isDocument(tree: Root): boolean {
  const head = tree.children[0];
  return head?.type === 'doctype' || (head?.type === 'element' && head.tagName.toLowerCase() === 'html');
}

/** The tree with its raw HTML parsed, as rehype-raw gives it. */
export function nativeRaw(tree: Root): Root {
  const markup = serialize(tree, htmlSchema);
  return isDocument(tree) ? parseDocument(markup) : parseFragment(markup);
}

/** rehype plugin: rehype-raw, by the browser's parser. */
export function rehypeNativeRaw() {
  return nativeRaw;
}
