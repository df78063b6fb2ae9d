import type { ExternalNavigationLink } from '../../../schemas/generated/tenant';

/** §2: the placeholder replaced by the user id of a logged-in user. */
export const USER_ID_PLACEHOLDER = '-suid-';

/** The link whose text equals the path (without the leading slash, URL-decoded), if any. */
export function linkForPath(links: readonly ExternalNavigationLink[], pathname: string): ExternalNavigationLink | undefined {
  let path = pathname.replace(/^\/+|\/+$/g, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    // a malformed escape cannot be a link text
  }
  return links.find((link) => link.text === path);
}

/** The route of a link shown inside the portal: /<text>. */
export function routeOf(link: ExternalNavigationLink): string {
  return `/${encodeURIComponent(link.text)}`;
}

/** Fills -suid- with the user id; the URL is used as is when there is none. */
export function withUserId(url: string, userId: string | undefined): string {
  return userId ? url.split(USER_ID_PLACEHOLDER).join(encodeURIComponent(userId)) : url;
}
