/**
 * portal-core.md §2 "Announcement banner": "visible at first and until the user closes it". A
 * closed banner stays closed across reloads and tabs: the browser keeps, per tenant, a fingerprint
 * of the announcement that was closed. A new announcement (other text in any language, or another
 * variant) has another fingerprint and shows again. Only the fingerprint is kept, never the text.
 * Storage that cannot be reached (a blocked third-party frame) is ignored (§8): the banner then
 * stays closed for as long as the page lives.
 */
export interface AnnouncementLike {
  html: { readonly 'de-DE'?: string; readonly 'en-GB'?: string };
  variant: string;
}

export const announcementClosedKey = (tenantId: string) => `portal.announcementClosed.${tenantId}`;

/** FNV-1a over the announcement's texts (in a fixed language order) and variant, as 8 hex digits. */
export function announcementFingerprint(announcement: AnnouncementLike): string {
  const html = announcement.html as Readonly<Record<string, string | undefined>>;
  const languages = Object.keys(html).sort();
  const source = JSON.stringify([
    announcement.variant,
    ...languages.map((language) => [language, html[language] ?? '']),
  ]);
  let hash = 0x811c9dc5;
  for (let i = 0; i < source.length; i++) {
    hash ^= source.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

function quietly<T>(action: () => T): T | undefined {
  try {
    return action();
  } catch {
    return undefined;
  }
}

/** Whether this very announcement was closed in this browser. */
export function wasClosed(
  storage: Storage | undefined,
  tenantId: string,
  announcement: AnnouncementLike,
): boolean {
  return (
    quietly(() => storage?.getItem(announcementClosedKey(tenantId))) === announcementFingerprint(announcement)
  );
}

/** Remembers that the user closed this announcement (replacing any earlier one's mark). */
export function rememberClosed(
  storage: Storage | undefined,
  tenantId: string,
  announcement: AnnouncementLike,
): void {
  quietly(() => storage?.setItem(announcementClosedKey(tenantId), announcementFingerprint(announcement)));
}

/** The browser's local storage, or none where reaching it throws. */
export function browserLocalStorage(): Storage | undefined {
  return quietly(() => (typeof window === 'undefined' ? undefined : window.localStorage));
}
