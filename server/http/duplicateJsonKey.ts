/**
 * The first key a JSON text names twice in one object, if any. JSON.parse keeps the last of two
 * equal keys (RFC 8259 §4 leaves it open), so `{"email":"a@x","email":"b@y"}` would be judged by
 * one reader and acted on by another: the portal refuses such a body instead of choosing.
 *
 * A single pass over the text, written for text JSON.parse accepts; on anything else it answers
 * undefined and leaves the verdict to the parser.
 */
export function duplicateJsonKey(text: string): string | undefined {
  // One entry per open container: the keys seen so far in an object, null for an array.
  const open: (Set<string> | null)[] = [];
  let keyNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let end = i + 1;
      let escaped = false;
      while (end < text.length && text.charCodeAt(end) !== 0x22) {
        if (text.charCodeAt(end) === 0x5c /* \ */) {
          escaped = true;
          end += 2;
        } else end += 1;
      }
      if (end >= text.length) return undefined;
      const keys = open[open.length - 1];
      if (keyNext && keys) {
        let key: string;
        try {
          key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        } catch {
          return undefined;
        }
        if (keys.has(key)) return key;
        keys.add(key);
        keyNext = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      open.push(new Set());
      keyNext = true;
    } else if (c === 0x5b /* [ */) {
      open.push(null);
      keyNext = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      open.pop();
      keyNext = false;
    } else if (c === 0x2c /* , */) {
      keyNext = open[open.length - 1] != null;
    } else if (c === 0x3a /* : */) {
      keyNext = false;
    }
  }
  return undefined;
}
