import type { ExternalNavigationLink } from '../../../schemas/generated/tenant';
import { localized } from '../../ui/localized';

/** §2: the placeholder replaced by the user id of a logged-in user. */
export const USER_ID_PLACEHOLDER = '-suid-';

/**
 * The link whose text equals the path (without the leading slash, URL-decoded), if any. The text of
 * any locale counts, so a link shared in one language opens in the other.
 */
export function linkForPath(
  links: readonly ExternalNavigationLink[],
  pathname: string,
): ExternalNavigationLink | undefined {
  let path = pathname.replace(/^\/+|\/+$/g, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    // a malformed escape cannot be a link text
  }
  return links.find((link) => Object.values(link.text).includes(path));
}

/** The link's menu label in the screen's language. */
export function linkText(link: ExternalNavigationLink, language: string): string {
  return localized(link.text, language);
}

/** The route of a link shown inside the portal: /<text> in the screen's language. */
export function routeOf(link: ExternalNavigationLink, language: string): string {
  return `/${encodeURIComponent(linkText(link, language))}`;
}

/** Fills -suid- with the user id; the URL is used as is when there is none. */
export function withUserId(url: string, userId: string | undefined): string {
  return userId ? url.split(USER_ID_PLACEHOLDER).join(encodeURIComponent(userId)) : url;
}
