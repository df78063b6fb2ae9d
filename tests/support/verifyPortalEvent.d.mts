/** Types of the README's verification recipe (verifyPortalEvent.mjs), for the tests that run it. */
export function verifyPortalEvent(
  rawBody: string | Buffer,
  headers: Record<string, string | string[] | undefined>,
  secret: string,
): unknown;
