/**
 * Host-frame messaging (account-flows.md §2): events go only to the tenant's configured parent
 * origins, never to "*", so a foreign page that frames the portal learns nothing.
 */
export type HostFrameEvent = 'sessionTimedOut' | 'accountDeleted' | 'loyaltyOptionDisabled';

export function isEmbeddedInFrame(): boolean {
  try {
    return window.parent !== window;
  } catch {
    return true;
  }
}

export function notifyHostFrame(event: HostFrameEvent, parentOrigins: readonly string[]): void {
  if (!isEmbeddedInFrame()) return;
  for (const origin of parentOrigins) window.parent.postMessage({ type: event }, origin);
}
