/**
 * Images and links of the portal's page at an address no subscriber's browser reaches: a logo at
 * `https://192.168.1.10/…` or `https://localhost/…` loads on the operator's own network and
 * nowhere else, so subscribers see a broken image or a dead link. Warnings, not errors: a staging
 * tenant may serve them from its own network on purpose. The server never fetches them (the page's
 * images are the browser's; the PDFs take only data: URIs), so this is about reach, not safety:
 * what the server fetches is held to public addresses elsewhere (docs/going-live.md "Outbound
 * requests").
 */
import { isDemoTenant } from './demoFlag';
import { nonPublicHost } from './publicAddress';
import type { Problem } from './schemaErrors';

const IMAGES = ['logoUrl', 'coverImagePlaceholderUrl'] as const;
const LINKS = [
  'logoTargetUrl',
  'termsOfServiceUrl',
  'privacyPolicyUrl',
  'siteNoticeUrl',
  'contactUrl',
] as const;

function hostProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? nonPublicHost(url.hostname) : undefined;
  } catch {
    return undefined;
  }
}

export function pageAddressWarnings(tenant: Record<string, unknown>): Problem[] {
  const warnings: Problem[] = [];
  const check = (pointer: string, raw: unknown, what: 'image' | 'link') => {
    const why = hostProblem(raw);
    if (!why) return;
    warnings.push({
      pointer,
      at: 'value',
      message: `${what === 'image' ? 'image' : 'link'} "${String(raw)}" is not at a public address (${why}): subscribers' browsers cannot ${what === 'image' ? 'load it' : 'open it'}`,
      hint:
        what === 'image'
          ? 'serve it from a public https host, or write it into the file as a data:image/ URI'
          : "link a page on the publisher's public website",
    });
  };
  for (const key of IMAGES) check(`/${key}`, tenant[key], 'image');
  const example = tenant.orderNumberExampleImageUrl;
  if (example && typeof example === 'object' && !Array.isArray(example))
    for (const [locale, raw] of Object.entries(example))
      check(`/orderNumberExampleImageUrl/${locale}`, raw, 'image');
  else check('/orderNumberExampleImageUrl', example, 'image');
  for (const key of LINKS) check(`/${key}`, tenant[key], 'link');
  warnings.push(...signOnProviderWarnings(tenant));
  return warnings;
}

/**
 * The sign-on provider is the server's to reach (discovery, keys, tokens), through the guard of
 * docs/going-live.md "Outbound requests": under `portal serve` a provider at a non-public address
 * is refused and every sign-on answers 502, which the operator would otherwise learn from a
 * subscriber. Only the development servers may reach one, as the demo's on 127.0.0.1:4455; a demo
 * tenant (README "Demo tenants") runs on those and is not warned.
 */
function signOnProviderWarnings(tenant: Record<string, unknown>): Problem[] {
  const login = tenant.login;
  if (isDemoTenant(tenant) || !login || typeof login !== 'object') return [];
  const oauth = (login as { oauth?: unknown }).oauth;
  if (!oauth || typeof oauth !== 'object') return [];
  const raw = (oauth as { issuer?: unknown }).issuer;
  const why = hostProblem(raw);
  if (!why) return [];
  return [
    {
      pointer: '/login/oauth/issuer',
      at: 'value',
      message: `sign-on provider "${String(raw)}" is not at a public address (${why}): \`portal serve\` does not connect to it, and every sign-on answers 502 sso_unavailable`,
      hint: 'name the provider by its public https address; only the development servers (npm start, portal dev) reach one, and only on this machine (127.0.0.0/8, ::1, localhost)',
    },
  ];
}
