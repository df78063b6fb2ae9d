/**
 * JSON text with positions: parses with jsonc-parser (strict JSON: no comments, no trailing
 * commas) so every issue can name the line and column of the key or value it is about.
 */
import {
  findNodeAtLocation,
  getNodeValue,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser';

export interface JsonSource {
  text: string;
  tree: Node;
  value: unknown;
  lineStarts: number[];
}

/** A problem found while reading the text, before any schema is involved. */
export interface SourceProblem {
  offset: number;
  pointer: string;
  message: string;
  hint?: string;
}

export type ParsedJson =
  | { ok: true; source: JsonSource; problems: SourceProblem[] }
  | { ok: false; problems: SourceProblem[]; lineStarts: number[] };

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

/** 1-based line and column of an offset (columns count UTF-16 code units, like editors do). */
export function positionAt(lineStarts: number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - lineStarts[low] + 1 };
}

function previousSignificantChar(text: string, offset: number): string | undefined {
  for (let i = offset - 1; i >= 0; i--) if (!/\s/.test(text[i])) return text[i];
  return undefined;
}

function describeParseError(text: string, error: ParseError): { message: string; hint?: string } {
  const here = text.slice(error.offset, error.offset + Math.max(1, error.length));
  const trailingComma =
    previousSignificantChar(text, error.offset) === ',' && (here.startsWith('}') || here.startsWith(']'));
  // ParseErrorCode is an ambient const enum (unusable with isolatedModules): switch on its name.
  switch (printParseErrorCode(error.error)) {
    case 'ValueExpected':
    case 'PropertyNameExpected':
      if (trailingComma)
        return {
          message: `trailing comma before "${here[0]}"`,
          hint: 'remove the comma after the last entry; JSON does not allow trailing commas',
        };
      if (error.offset >= text.length)
        return {
          message: 'the file ends too early',
          hint: 'a value or a closing } or ] is missing at the end',
        };
      return printParseErrorCode(error.error) === 'ValueExpected'
        ? {
            message: `expected a value but found "${here}"`,
            hint: 'a value is a string in double quotes, a number, true, false, null, an object {…} or a list […]',
          }
        : {
            message: `expected a property name in double quotes but found "${here}"`,
            hint: 'write keys as "name": value',
          };
    case 'InvalidSymbol':
      return {
        message: `unexpected character "${here}"`,
        hint: 'strings and keys need double quotes ("…", not \'…\'); true, false and null are lower-case',
      };
    case 'ColonExpected':
      return { message: 'expected ":" after the property name', hint: 'write "name": value' };
    case 'CommaExpected':
      return {
        message: 'expected a comma before this entry',
        hint: 'separate entries with commas: add one at the end of the previous entry',
      };
    case 'CloseBraceExpected':
      return {
        message: 'expected "}" to close the object',
        hint: 'check that every { has a matching } and that entries are separated by commas',
      };
    case 'CloseBracketExpected':
      return {
        message: 'expected "]" to close the list',
        hint: 'check that every [ has a matching ] and that entries are separated by commas',
      };
    case 'EndOfFileExpected':
      return {
        message: 'unexpected content after the end of the JSON document',
        hint: 'a tenant file holds exactly one object; remove what follows its closing }',
      };
    case 'InvalidCommentToken':
      return {
        message: 'comments are not allowed in JSON',
        hint: 'remove the comment; JSON has none (keep notes in the commit message)',
      };
    case 'UnexpectedEndOfComment':
      return { message: 'comments are not allowed in JSON (and this one is not closed)' };
    case 'UnexpectedEndOfString':
      return {
        message: 'string is not closed',
        hint: 'add the closing double quote; a line break inside a string must be written \\n',
      };
    case 'InvalidNumberFormat':
    case 'UnexpectedEndOfNumber':
      return {
        message: `invalid number "${here}"`,
        hint: 'write numbers like 30 or 4.5, without leading zeros or units',
      };
    case 'InvalidUnicode':
      return {
        message: 'invalid \\u escape',
        hint: 'write \\u followed by four hex digits, or the character itself',
      };
    case 'InvalidEscapeCharacter':
      return {
        message: 'invalid escape sequence in string',
        hint: 'a backslash starts an escape such as \\n or \\"; write a literal backslash as \\\\',
      };
    case 'InvalidCharacter':
      return {
        message: 'invalid character in string',
        hint: 'control characters such as tabs and line breaks must be escaped (\\t, \\n)',
      };
    default:
      return { message: 'invalid JSON' };
  }
}

/** Escapes one JSON pointer segment (RFC 6901). */
export function escapePointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(path: readonly (string | number)[]): string {
  return path.map((segment) => `/${escapePointerSegment(segment)}`).join('');
}

export function pathOf(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment));
}

/** Duplicate keys are legal for JSON.parse (the last wins) but always a mistake in a config file. */
function duplicateKeys(node: Node, path: (string | number)[], problems: SourceProblem[]): void {
  if (node.type === 'object') {
    const seen = new Map<string, Node>();
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (!keyNode) continue;
      const key = String(keyNode.value);
      const first = seen.get(key);
      if (first) {
        problems.push({
          offset: keyNode.offset,
          pointer: pointerOf([...path, key]),
          message: `duplicate property "${key}"`,
          hint: 'JSON keeps only the last one; remove or merge the other',
        });
      } else {
        seen.set(key, keyNode);
      }
      if (valueNode) duplicateKeys(valueNode, [...path, key], problems);
    }
  } else if (node.type === 'array') {
    (node.children ?? []).forEach((child, index) => duplicateKeys(child, [...path, index], problems));
  }
}

/**
 * A tenant file's JSON value. A byte-order mark (what Windows Notepad writes first) is no content
 * (RFC 8259 §8.1 lets a parser ignore it), as `portal validate` reads it (parseJson).
 */
export function parseJsonValue(text: string): unknown {
  return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

export function parseJson(text: string): ParsedJson {
  const lineStarts = lineStartsOf(text);
  if (text.trim() === '') {
    return {
      ok: false,
      lineStarts,
      problems: [
        {
          offset: 0,
          pointer: '',
          message: 'the file is empty',
          hint: 'a tenant file holds one JSON object, for example one made by `portal new <id>`',
        },
      ],
    };
  }
  const errors: ParseError[] = [];
  // A byte-order mark (what Windows Notepad writes first) is no content (RFC 8259 §8.1 lets a
  // parser ignore it): read as a space, so every offset stays where it is in the file.
  const tree = parseTree(text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text, errors, {
    disallowComments: true,
    allowTrailingComma: false,
    allowEmptyContent: false,
  });
  if (errors.length > 0 || !tree) {
    // After a syntax error the parser recovers and often reports follow-up errors of the same
    // mistake (a trailing comma is both "property name expected" and "value expected"; 'single
    // quotes' give four errors): keep the first error of each line. A trailing comma is reported
    // at the comma.
    const problems: SourceProblem[] = [];
    const lines = new Set<number>();
    for (const error of errors) {
      const described = describeParseError(text, error);
      const offset = described.message.startsWith('trailing comma')
        ? text.lastIndexOf(',', error.offset)
        : error.offset;
      const line = positionAt(lineStarts, offset).line;
      if (lines.has(line)) continue;
      lines.add(line);
      problems.push({ offset, pointer: '', ...described });
    }
    return {
      ok: false,
      lineStarts,
      problems: problems.length ? problems : [{ offset: 0, pointer: '', message: 'invalid JSON' }],
    };
  }
  const problems: SourceProblem[] = [];
  duplicateKeys(tree, [], problems);
  return { ok: true, source: { text, tree, value: getNodeValue(tree), lineStarts }, problems };
}

/**
 * Offset of the key (`at: 'key'`) or the value of the setting at `pointer`. Missing settings
 * (a default, an override that is not written) fall back to the nearest written ancestor.
 */
export function offsetOf(source: JsonSource, pointer: string, at: 'key' | 'value'): number {
  const path = pathOf(pointer);
  for (let length = path.length; length >= 0; length--) {
    const node = findNodeAtLocation(source.tree, path.slice(0, length));
    if (!node) continue;
    const property = node.parent?.type === 'property' ? node.parent : undefined;
    const wantKey = at === 'key' || length < path.length;
    if (wantKey && property?.children?.[0]) return property.children[0].offset;
    return node.offset;
  }
  return 0;
}
