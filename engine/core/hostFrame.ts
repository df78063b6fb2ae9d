/**
 * Host-frame messaging (portal-core.md §1, account-flows.md §2: "the parent frame is notified with
 * the message sessionTimedOut"): the message is the event's name itself, the string a host page
 * compares `event.data` with. Events go only to the tenant's configured parent origins, never to
 * "*", so a foreign page that frames the portal learns nothing.
 */
export type HostFrameEvent = 'sessionTimedOut' | 'accountDeleted' | 'loyaltyOptionDisabled';

export function isEmbeddedInFrame(): boolean {
  try {
    return window.parent !== window;
  } catch {
    return true;
  }
}

/**
 * The framing page's origin where the browser tells it (`location.ancestorOrigins`: Chromium,
 * Safari), else the page that opened the frame (`document.referrer`), else unknown.
 */
function parentOrigin(): string | undefined {
  const ancestors = (window.location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  if (ancestors?.length) return ancestors[0];
  try {
    return document.referrer ? new URL(document.referrer).origin : undefined;
  } catch {
    return undefined;
  }
}

export function notifyHostFrame(event: HostFrameEvent, parentOrigins: readonly string[]): void {
  if (!isEmbeddedInFrame()) return;
  // Posted to the parent's own origin when it is a configured one: a message for each other
  // configured origin is refused by the browser with a warning in the console. An origin the browser
  // does not tell is tried with each (it is delivered to the one that matches).
  const known = parentOrigin();
  const targets = known !== undefined && parentOrigins.includes(known) ? [known] : parentOrigins;
  for (const origin of targets) window.parent.postMessage(event, origin);
}
