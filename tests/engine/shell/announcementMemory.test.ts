import { describe, expect, it } from 'vitest';
import {
  announcementClosedKey,
  announcementFingerprint,
  rememberClosed,
  wasClosed,
} from '../../../engine/app/shell/announcementMemory';

/** A Map-backed Storage, as the browser's local storage behaves. */
function memoryStorage(): Storage {
  const values = new Map<string, string>();
  return {
    get length() {
      return values.size;
    },
    clear: () => values.clear(),
    getItem: (key) => values.get(key) ?? null,
    key: (index) => [...values.keys()][index] ?? null,
    removeItem: (key) => void values.delete(key),
    setItem: (key, value) => void values.set(key, String(value)),
  };
}

const strike = {
  html: { 'de-DE': '<p>Warnstreik am Samstag</p>', 'en-GB': '<p>Strike on Saturday</p>' },
  variant: 'warning',
};

describe('a closed announcement (portal-core.md §2: visible until the user closes it)', () => {
  it('stays closed for the same announcement after a reload', () => {
    const storage = memoryStorage();
    expect(wasClosed(storage, 'stadtkurier', strike)).toBe(false);
    rememberClosed(storage, 'stadtkurier', strike);
    expect(wasClosed(storage, 'stadtkurier', { ...strike, html: { ...strike.html } })).toBe(true);
  });

  it('shows again when the tenant publishes another text in any language, or another variant', () => {
    const storage = memoryStorage();
    rememberClosed(storage, 'stadtkurier', strike);
    expect(
      wasClosed(storage, 'stadtkurier', {
        ...strike,
        html: { ...strike.html, 'en-GB': '<p>Strike on Sunday</p>' },
      }),
    ).toBe(false);
    expect(wasClosed(storage, 'stadtkurier', { ...strike, variant: 'error' })).toBe(false);
    expect(wasClosed(storage, 'stadtkurier', { ...strike, html: { 'de-DE': strike.html['de-DE'] } })).toBe(
      false,
    );
  });

  it("keeps each tenant's closing apart, and only a fingerprint, never the text", () => {
    const storage = memoryStorage();
    rememberClosed(storage, 'stadtkurier', strike);
    expect(wasClosed(storage, 'technikwelt', strike)).toBe(false);
    expect(storage.getItem(announcementClosedKey('stadtkurier'))).toMatch(/^[0-9a-f]{8}$/);
  });

  it('does not depend on the order the languages are written in', () => {
    expect(announcementFingerprint({ html: { 'en-GB': 'a', 'de-DE': 'b' }, variant: 'info' })).toBe(
      announcementFingerprint({ html: { 'de-DE': 'b', 'en-GB': 'a' }, variant: 'info' }),
    );
  });

  it('ignores storage that cannot be reached (§8)', () => {
    const blocked = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    } as unknown as Storage;
    expect(() => rememberClosed(blocked, 'stadtkurier', strike)).not.toThrow();
    expect(wasClosed(blocked, 'stadtkurier', strike)).toBe(false);
    expect(wasClosed(undefined, 'stadtkurier', strike)).toBe(false);
  });
});
