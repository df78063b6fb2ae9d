import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parse,
  parseTree,
  type Edit,
  type JSONPath,
  type Node as JsonNode,
} from 'jsonc-parser';

/**
 * Writes an edited tenant back into its file text with the smallest edits (a save
 * keeps the `$schema` line, key order and formatting): the old and the new
 * value are compared setting by setting and only the settings that differ are replaced, added or
 * removed, so untouched lines keep their bytes (inline arrays, long data: URLs, blank lines). An
 * array whose length changed is replaced as a whole.
 */
export function applyMinimalEdits(source: string, next: unknown): string {
  const unit = detectIndentUnit(source);
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  let text = source;
  for (const change of changedPaths(parse(source), next, []))
    text = applyEdits(text, [editFor(text, change, unit, eol)]);
  return text;
}

/**
 * One change as one text edit. Removals come from jsonc-parser (it takes the comma along); values and
 * new settings are written here in the tenant files' own style, two-space objects and one-line lists
 * of plain values, because jsonc's formatter reformats whole lines and would rewrap untouched
 * neighbours (`"e-card": ["TWS"]` becoming three lines).
 */
function editFor(text: string, change: Change, unit: string, eol: string): Edit {
  const tree = parseTree(text)!;
  if (change.value === undefined) return removal(text, tree, change.path);
  const node = findNodeAtLocation(tree, change.path);
  if (node) {
    // A list the file wrote one item a line stays so (the features of a tenant made by `portal new`).
    const multiline =
      node.type === 'array' && text.slice(node.offset, node.offset + node.length).includes('\n');
    return {
      offset: node.offset,
      length: node.length,
      content: pretty(change.value, indentAt(text, node.offset), unit, eol, multiline),
    };
  }
  const parent = findNodeAtLocation(tree, change.path.slice(0, -1));
  if (!parent || parent.type !== 'object') return modify(text, change.path, change.value, {})[0];
  const key = JSON.stringify(String(change.path[change.path.length - 1]));
  const last = parent.children?.[parent.children.length - 1];
  if (last) {
    const indent = indentAt(text, last.offset);
    return {
      offset: last.offset + last.length,
      length: 0,
      content: `,${eol}${indent}${key}: ${pretty(change.value, indent, unit, eol)}`,
    };
  }
  const indent = indentAt(text, parent.offset);
  return {
    offset: parent.offset,
    length: parent.length,
    content: `{${eol}${indent}${unit}${key}: ${pretty(change.value, indent + unit, unit, eol)}${eol}${indent}}`,
  };
}

/**
 * Removes a setting with its line: from its line's start to the next setting's line, or, for the
 * last setting, from the end of the one before (its comma goes too); the only setting leaves `{}`.
 */
function removal(text: string, tree: JsonNode, path: JSONPath): Edit {
  const property = findNodeAtLocation(tree, path)?.parent;
  const container = property?.parent;
  if (!property || property.type !== 'property' || !container?.children)
    return modify(text, path, undefined, {})[0] ?? { offset: 0, length: 0, content: '' };
  const siblings = container.children;
  const index = siblings.indexOf(property);
  const lineStartOf = (offset: number) => {
    const start = text.lastIndexOf('\n', offset - 1) + 1;
    return /^[ \t]*$/.test(text.slice(start, offset)) ? start : offset;
  };
  if (index < siblings.length - 1) {
    const start = lineStartOf(property.offset);
    return { offset: start, length: lineStartOf(siblings[index + 1].offset) - start, content: '' };
  }
  if (index > 0) {
    const previous = siblings[index - 1];
    const start = previous.offset + previous.length;
    return { offset: start, length: property.offset + property.length - start, content: '' };
  }
  return { offset: container.offset, length: container.length, content: '{}' };
}

/** Whitespace at the start of the line holding `offset`. */
function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** Longest line a list of plain values is written on; a longer one takes a line per item. */
const LINE_WIDTH = 100;

/**
 * JSON in the files' style: objects one key a line, lists of plain values on one line unless the
 * line would pass LINE_WIDTH or the list was written one item a line (`multiline`).
 */
export function pretty(value: unknown, indent: string, unit = '  ', eol = '\n', multiline = false): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const plain = value.every((item) => item === null || typeof item !== 'object');
    const inline = `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
    if (plain && !multiline && indent.length + inline.length <= LINE_WIDTH) return inline;
    return `[${eol}${value.map((item) => `${indent}${unit}${pretty(item, indent + unit, unit, eol)}`).join(`,${eol}`)}${eol}${indent}]`;
  }
  if (isObject(value)) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return '{}';
    return `{${eol}${entries.map(([key, item]) => `${indent}${unit}${JSON.stringify(key)}: ${pretty(item, indent + unit, unit, eol)}`).join(`,${eol}`)}${eol}${indent}}`;
  }
  return JSON.stringify(value);
}

interface Change {
  path: JSONPath;
  /** `undefined` removes the setting. */
  value: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The settings that differ, deepest first where both sides are objects (or same-length arrays). */
export function changedPaths(before: unknown, after: unknown, path: JSONPath): Change[] {
  if (isObject(before) && isObject(after)) {
    const changes: Change[] = [];
    for (const key of Object.keys(before)) {
      if (after[key] === undefined) changes.push({ path: [...path, key], value: undefined });
      else changes.push(...changedPaths(before[key], after[key], [...path, key]));
    }
    for (const key of Object.keys(after)) {
      if (before[key] === undefined && after[key] !== undefined)
        changes.push({ path: [...path, key], value: after[key] });
    }
    return changes;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return before.flatMap((item, index) => changedPaths(item, after[index], [...path, index]));
  }
  return sameJson(before, after) ? [] : [{ path, value: after }];
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The file's own indentation unit (tenant files use two spaces). */
function detectIndentUnit(source: string): string {
  return /\n([ \t]+)"/.exec(source)?.[1] ?? '  ';
}
