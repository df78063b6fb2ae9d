/**
 * A small seeded pseudo-random generator for the demo data (never Math.random): the same seed gives
 * the same sequence on every machine and Node version, so the demo data is reproducible.
 * Algorithm: mulberry32 (32-bit state, good enough for picking names; not for anything secret).
 */

/** 32-bit FNV-1a hash of a string: the seed of a tenant's generator. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Prng.pick: empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** A string of random decimal digits. */
  digits(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += String(this.int(0, 9));
    return out;
  }

  /** A UUID-shaped (version 4 layout) id drawn from this generator: stable across runs. */
  uuid(): string {
    const hex: string[] = [];
    for (let i = 0; i < 32; i++) hex.push(this.int(0, 15).toString(16));
    hex[12] = '4';
    hex[16] = ((this.int(0, 3) | 8) >>> 0).toString(16);
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}
