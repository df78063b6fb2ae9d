import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { duplicateJsonKey } from '../../../server/http/duplicateJsonKey';

describe('duplicateJsonKey', () => {
  it('names the first key an object has twice', () => {
    expect(duplicateJsonKey('{"a": 1, "b": 2, "a": 3}')).toBe('a');
    expect(duplicateJsonKey('{"x": {"a": 1, "a": 2}}')).toBe('a');
    expect(duplicateJsonKey('[{"a": 1}, {"b": [1, {"c": 0, "c": 1}]}]')).toBe('c');
  });

  it('compares keys as JSON reads them, escapes included', () => {
    expect(duplicateJsonKey('{"email": 1, "e\\u006dail": 2}')).toBe('email');
    expect(duplicateJsonKey('{"a\\"b": 1, "a\\u0022b": 2}')).toBe('a"b');
  });

  it('sees no duplicate in keys of different objects, in values or in arrays', () => {
    expect(duplicateJsonKey('{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}')).toBeUndefined();
    expect(duplicateJsonKey('{"a": "a", "b": "a", "c": ["a", "a"]}')).toBeUndefined();
    expect(duplicateJsonKey('{"a": "x,\\"a\\": {", "b": "}"}')).toBeUndefined();
    expect(duplicateJsonKey('{"a": {}, "b": [], "c": [[], {}]}')).toBeUndefined();
    expect(duplicateJsonKey('"a"')).toBeUndefined();
  });

  it('leaves text that is not JSON to the parser', () => {
    expect(duplicateJsonKey('{"a": 1, "a')).toBeUndefined();
    expect(duplicateJsonKey('{"\\x": 1, "\\x": 2}')).toBeUndefined();
  });

  it('finds nothing in what JSON.stringify writes, and a key added twice to any object', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, key) => {
        const text = JSON.stringify(value);
        expect(duplicateJsonKey(text)).toBeUndefined();
        const doubled = `{${JSON.stringify(key)}: 1, "v": ${text}, ${JSON.stringify(key)}: 2}`;
        expect(duplicateJsonKey(doubled)).toBe(key);
      }),
    );
  });
});
