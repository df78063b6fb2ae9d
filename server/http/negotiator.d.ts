// negotiator ships no types; only what server/http/compression.ts calls.
declare module 'negotiator' {
  import type { IncomingMessage } from 'node:http';
  export default class Negotiator {
    constructor(request: Pick<IncomingMessage, 'headers'>);
    encoding(available: readonly string[], options?: { preferred?: readonly string[] }): string | undefined;
  }
}
