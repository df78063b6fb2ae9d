/**
 * Rules between fields of a tenant that JSON Schema cannot express (Docusaurus keeps these in a
 * plain function after schema validation). They run even when the schema found problems, on the
 * copy with defaults applied, so an operator sees every mistake at once; each rule therefore
 * checks the types it relies on instead of trusting them.
 */
import type { TenantWithDefaults } from '../schemas/generated/tenant';
import { hostName } from './hostNames';
import type { ThemePreset } from '../schemas/generated/theme';
import {
  contrastFailures,
  formatContrastRatio,
  resolveThemeTokens,
  type TenantTheme,
  type ThemeTokens,
} from '../engine/domain/theme';
import { contrastHint, tokensToChange } from './contrastHint';
import { closestMatch, closestTextKey, didYouMean, textKeyHint } from './didYouMean';
import { escapePointerSegment } from './jsonSource';
import type { Problem } from './schemaErrors';
import { webhookSecretProblem } from './webhookSecret';
import { nonPublicHost } from './publicAddress';
import { offerExperimentRules } from './offerExperimentRules';
import { paymentProviderRules } from './paymentProviderRules';

export interface RuleContext {
  /** File name without .json; the id must equal it. */
  fileId?: string;
  knownTextKeys?: Set<string>;
  themePresets?: Record<string, ThemePreset>;
}

type Loose = Record<string, unknown>;

function isRecord(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
function record(value: unknown): Loose {
  return isRecord(value) ? value : {};
}
function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function idMatchesFile(tenant: Loose, ctx: RuleContext): Problem[] {
  const id = text(tenant.id);
  if (id === undefined || ctx.fileId === undefined || id === ctx.fileId) return [];
  return [
    {
      pointer: '/id',
      at: 'value',
      message: `id "${id}" does not match the file name "${ctx.fileId}.json"`,
      // Only a name an id may have is offered as one (lower case, digits and dashes: the schema's).
      hint: /^[a-z][a-z0-9-]{1,40}$/.test(ctx.fileId)
        ? `rename the file to ${id}.json or set "id": "${ctx.fileId}"`
        : `rename the file to ${id}.json`,
    },
  ];
}

function localesOffered(tenant: Loose): Problem[] {
  const problems: Problem[] = [];
  const locales = list(tenant.locales).filter((l): l is string => typeof l === 'string');
  const defaultLocale = text(tenant.defaultLocale);
  if (defaultLocale !== undefined && locales.length > 0 && !locales.includes(defaultLocale)) {
    problems.push({
      pointer: '/defaultLocale',
      at: 'value',
      message: `default locale "${defaultLocale}" is not offered in locales (${locales.join(', ')})`,
      hint: `add "${defaultLocale}" to locales or set defaultLocale to ${locales.map((l) => `"${l}"`).join(' or ')}`,
    });
  }
  for (const locale of Object.keys(record(tenant.texts))) {
    if (locales.length > 0 && !locales.includes(locale)) {
      problems.push({
        pointer: `/texts/${escapePointerSegment(locale)}`,
        at: 'key',
        message: `texts for "${locale}" are given but "${locale}" is not offered in locales`,
        hint: `add "${locale}" to locales or remove these texts`,
      });
    }
  }
  return problems;
}

function meantKey(match: string | undefined): string {
  return match === undefined ? '' : `. Did you mean "${match}"?`;
}

/**
 * Unknown keys that get a "did you mean" and the valid keys beside them. Each is a search of every
 * known key; past this many the file is not a handful of slips, and a file of thousands (made by a
 * script, or hostile) must not hold the studio's server or `portal validate` for minutes.
 */
export const SUGGESTED_TEXT_KEYS = 25;

function textKeysKnown(tenant: Loose, ctx: RuleContext): Problem[] {
  const known = ctx.knownTextKeys;
  if (!known) return [];
  const problems: Problem[] = [];
  for (const [locale, table] of Object.entries(record(tenant.texts))) {
    for (const key of Object.keys(record(table))) {
      if (known.has(key)) continue;
      const pointer = `/texts/${escapePointerSegment(locale)}/${escapePointerSegment(key)}`;
      if (problems.length >= SUGGESTED_TEXT_KEYS) {
        problems.push({ pointer, at: 'key', message: `unknown text key "${key}"` });
        continue;
      }
      problems.push({
        pointer,
        at: 'key',
        message: `unknown text key "${key}"${meantKey(closestTextKey(key, known))}`,
        // The valid keys themselves, not the files they come from.
        hint: textKeyHint(key, known),
      });
    }
  }
  return problems;
}

/** The theme tokens of the tenant when its preset exists and its colours are well-formed. */
export function tenantThemeTokens(
  tenant: Loose,
  presets: Record<string, ThemePreset> | undefined,
): ThemeTokens | undefined {
  const theme = record(tenant.theme);
  const preset = presets?.[text(theme.preset) ?? ''];
  if (!preset) return undefined;
  return resolveThemeTokens(theme as unknown as TenantTheme, preset);
}

function themeRules(tenant: Loose, ctx: RuleContext): Problem[] {
  const presets = ctx.themePresets;
  const theme = record(tenant.theme);
  const presetName = text(theme.preset);
  if (!presets || presetName === undefined) return [];
  if (!presets[presetName]) {
    const names = Object.keys(presets).sort();
    return [
      {
        pointer: '/theme/preset',
        at: 'value',
        message: `unknown theme preset "${presetName}"${didYouMean(presetName, names)}`,
        hint: `available presets (files in themes/): ${names.join(', ')}`,
      },
    ];
  }
  const tokens = tenantThemeTokens(tenant, presets)!;
  const overridden = record(record(theme.tokens).colors);
  return contrastFailures(tokens).map((failure) => {
    // The setting the tenant wrote that the hint asks to change; else any it wrote of the two.
    const culprit = [...tokensToChange(failure), failure.foreground, failure.background].find(
      (token) => token in overridden,
    );
    return {
      pointer: culprit ? `/theme/tokens/colors/${culprit}` : '/theme/preset',
      at: 'value' as const,
      message:
        `insufficient contrast between ${failure.foreground} (${failure.foregroundColor}) and ${failure.background} ` +
        `(${failure.backgroundColor}): ${formatContrastRatio(failure.ratio)}, WCAG AA needs at least ${failure.minimum}:1`,
      hint: contrastHint(failure),
    };
  });
}

function blacklistsOfEnabledFeatures(tenant: Loose): Problem[] {
  const features = new Set(list(tenant.features));
  return Object.keys(record(tenant.publicationBlacklists))
    .filter((feature) => !features.has(feature))
    .map((feature) => ({
      pointer: `/publicationBlacklists/${escapePointerSegment(feature)}`,
      at: 'key' as const,
      message: `blacklist for feature "${feature}", which is not in features`,
      hint: `add "${feature}" to features or remove this blacklist`,
    }));
}

function uniqueHosts(tenant: Loose): Problem[] {
  const seen = new Map<string, number>();
  const problems: Problem[] = [];
  list(tenant.hosts).forEach((host, index) => {
    if (typeof host !== 'string') return;
    const key = hostName(host);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else
      problems.push({
        pointer: `/hosts/${index}`,
        at: 'value',
        message: `host "${host}" is listed twice (also at /hosts/${first})`,
        hint: 'remove one of them',
      });
  });
  return problems;
}

/** Features that cannot work without a setting (portal-core.md §2, §3). */
const FEATURE_NEEDS: ReadonlyArray<{
  feature: string;
  missing: (t: Loose) => boolean;
  message: string;
  hint: string;
}> = [
  {
    feature: 'announcement',
    missing: (t) => !isRecord(t.announcement),
    message: 'there is no announcement',
    hint: 'add "announcement": {"html": "…", "variant": "info"} or remove "announcement" from features',
  },
  {
    feature: 'oauth',
    missing: (t) => !isRecord(record(t.login).oauth),
    message: 'login.oauth is missing',
    hint: 'add "oauth": {"issuer": "https://…", "clientId": "…"} to login, or remove "oauth" from features',
  },
  {
    feature: 'external-subscription-link',
    missing: (t) => !isRecord(t.externalSubscriptionLink),
    message: 'externalSubscriptionLink is missing',
    hint: 'add "externalSubscriptionLink": {"urlTemplate": "https://…/{orderNumber}"}, or remove the feature',
  },
  {
    feature: 'external-navigation',
    missing: (t) => list(t.externalNavigationLinks).length === 0,
    message: 'externalNavigationLinks is empty',
    hint: 'add a link, for example {"text": "E-Paper", "url": "https://…"}, or remove the feature',
  },
  {
    feature: 'contact-form',
    missing: (t) => list(record(t.contactForm).activities).length === 0,
    message: 'contactForm.activities is empty',
    hint: 'add at least one activity, for example {"activity": "GENERAL", "name": {"de-DE": "Allgemeine Anfrage"}}',
  },
  {
    feature: 'e-card',
    missing: (t) => list(record(t.eCard).templates).length === 0,
    message: 'eCard.templates is empty',
    hint: 'add at least one template {"name", "category", "previewImageUrl"}, or remove the feature',
  },
];

function featuresHaveTheirSettings(tenant: Loose): Problem[] {
  const features = list(tenant.features);
  const problems: Problem[] = [];
  for (const need of FEATURE_NEEDS) {
    const index = features.indexOf(need.feature);
    if (index >= 0 && need.missing(tenant)) {
      problems.push({
        pointer: `/features/${index}`,
        at: 'value',
        message: `feature "${need.feature}" is on but ${need.message}`,
        hint: need.hint,
      });
    }
  }
  return problems;
}

function canSignIn(tenant: Loose): Problem[] {
  const login = record(tenant.login);
  const features = list(tenant.features);
  if (
    login.magicLink !== false ||
    login.password === true ||
    features.includes('oauth') ||
    features.includes('kicker-auth')
  )
    return [];
  return [
    {
      pointer: '/login',
      at: 'key',
      message:
        'no way to sign in: magicLink and password are off and neither the oauth nor the kicker-auth feature is on',
      hint: 'set "magicLink": true or "password": true in login, or enable oauth or kicker-auth',
    },
  ];
}

function embeddingHasParents(tenant: Loose): Problem[] {
  const embedding = record(tenant.embedding);
  if (embedding.isEmbedded !== true || list(embedding.parentOrigins).length > 0) return [];
  return [
    {
      pointer: '/embedding/isEmbedded',
      at: 'value',
      message: 'the portal is embedded but embedding.parentOrigins is empty',
      hint: 'add the origin of the page that frames the portal, for example "parentOrigins": ["https://www.example.com"]',
    },
  ];
}

function referencesResolve(tenant: Loose): Problem[] {
  const problems: Problem[] = [];
  const activities = list(record(tenant.contactForm).activities)
    .map((a) => text(record(a).activity))
    .filter((a): a is string => !!a);
  const revocation = text(record(tenant.cancellation).revocationContactActivity);
  if (revocation !== undefined && !activities.includes(revocation)) {
    problems.push({
      pointer: '/cancellation/revocationContactActivity',
      at: 'value',
      message: `unknown contact activity "${revocation}"${didYouMean(revocation, activities)}`,
      hint: activities.length
        ? `use one of contactForm.activities: ${activities.join(', ')}`
        : 'add the activity to contactForm.activities',
    });
  }
  const faq = record(tenant.faq);
  const categories = [
    'general',
    ...list(faq.categories)
      .map((c) => text(record(c).id))
      .filter((c): c is string => !!c),
  ];
  list(faq.entries).forEach((entry, index) => {
    const category = text(record(entry).category);
    if (category === undefined || categories.includes(category)) return;
    const suggestion = closestMatch(category, categories);
    problems.push({
      pointer: `/faq/entries/${index}/category`,
      at: 'value',
      message: `unknown FAQ category "${category}"${suggestion ? `. Did you mean "${suggestion}"?` : ''}`,
      hint: `add it to faq.categories or use one of: ${categories.join(', ')}`,
    });
  });
  return problems;
}

/**
 * Webhook endpoints (docs/going-live.md "Account events and webhooks"): events carry subscribers' data and
 * the signing secret protects them, so they travel over https, and to a public address only
 * (docs/going-live.md "Outbound requests"): the server refuses to connect to this machine, its network or a
 * cloud metadata service whatever the file says, so such a URL is refused here first, in every notation
 * (127.1, 2130706433, [::ffff:127.0.0.1], … name the same machine; the URL parser has already
 * written them as 127.0.0.1 or ::ffff:7f00:1, and tenant/publicAddress.ts reads the bytes). A name
 * is judged by the server when it resolves it; only `localhost` and its subdomains are known to
 * be this machine here. The secret comes from the server's environment (secretEnv), never from
 * the file, which is committed; previousSecretEnv (a rotation's old secret, docs/going-live.md "Rotating a
 * secret") goes with a secretEnv of its own. A URL the schema already refused is left to it.
 */
function webhookRules(tenant: Loose): Problem[] {
  const problems: Problem[] = [];
  list(tenant.webhooks).forEach((entry, index) => {
    const endpoint = record(entry);
    const base = `/webhooks/${index}`;
    const raw = text(endpoint.url);
    let url: URL | undefined;
    try {
      url = raw !== undefined && !/\s/.test(raw) ? new URL(raw) : undefined;
    } catch {
      url = undefined;
    }
    const notPublic = url && url.hostname !== '' ? nonPublicHost(url.hostname) : undefined;
    if (url && url.hostname !== '' && url.protocol !== 'https:') {
      // No "write https://…" for an address the next problem refuses anyway.
      const https =
        url.protocol === 'http:' && !notPublic ? `https://${raw!.slice('http://'.length)}` : undefined;
      problems.push({
        pointer: `${base}/url`,
        at: 'value',
        message:
          url.protocol === 'http:'
            ? `webhook URL "${raw}" must use https`
            : `webhook URL "${raw}" must be an https URL`,
        hint: https ? `write "${https}"` : 'for example "https://crm.example.com/portal-events"',
      });
    }
    if (notPublic) {
      problems.push({
        pointer: `${base}/url`,
        at: 'value',
        message: `webhook URL "${raw}" does not go to a public address: ${notPublic}`,
        hint: 'name the receiver by its public host name, for example "https://crm.example.com/portal-events": the server sends nothing to loopback, private, link-local or other non-public addresses',
      });
    }
    if (url && (url.username || url.password)) {
      problems.push({
        pointer: `${base}/url`,
        at: 'value',
        message: `webhook URL "${raw}" carries a user name or password, which would be committed with the tenant file`,
        hint: "remove it from the URL; receivers check the webhook-signature header made with the endpoint's secret (secretEnv) instead",
      });
    }
    const hasEnv = endpoint.secretEnv !== undefined;
    const hasSecret = endpoint.secret !== undefined;
    if (!hasEnv && !hasSecret) {
      const suggested = `PORTAL_WEBHOOK_SECRET_${(text(tenant.id) ?? 'TENANT').toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
      problems.push({
        pointer: base,
        at: 'value',
        message: 'webhook endpoint has no signing secret',
        hint: `add "secretEnv": "${suggested}" and set that environment variable on the server`,
      });
    } else if (hasEnv && hasSecret) {
      problems.push({
        pointer: `${base}/secret`,
        at: 'key',
        message: 'webhook endpoint gives both secretEnv and secret',
        hint: 'keep secretEnv and remove secret',
      });
    } else if (hasSecret) {
      problems.push({
        pointer: `${base}/secret`,
        at: 'key',
        message:
          'a literal webhook secret is not accepted: the tenant file is committed, so the secret would not be secret',
        hint: 'put the secret in an environment variable of the server and name it: "secretEnv": "PORTAL_WEBHOOK_SECRET_…"',
      });
    }
    if (endpoint.previousSecretEnv !== undefined) {
      if (!hasEnv) {
        problems.push({
          pointer: `${base}/previousSecretEnv`,
          at: 'key',
          message:
            'previousSecretEnv keeps the old secret of secretEnv during a rotation, and this endpoint has no secretEnv',
          hint: "name the new secret's variable in secretEnv, or remove previousSecretEnv",
        });
      } else if (endpoint.previousSecretEnv === endpoint.secretEnv) {
        problems.push({
          pointer: `${base}/previousSecretEnv`,
          at: 'value',
          message: `previousSecretEnv names the same variable as secretEnv (${text(endpoint.secretEnv)})`,
          hint: 'put the new secret in another variable and name that in secretEnv; previousSecretEnv names the one with the old secret',
        });
      }
    }
  });
  return problems;
}

const ENV_NAME = /^[A-Z][A-Z0-9_]{0,127}$/;

/**
 * What validation can tell about the secrets of secretEnv and previousSecretEnv: only
 * the variables' names are in the file, so their values are checked in the environment the
 * validator runs in — the server's own when the studio or a server validates, maybe not when an
 * operator runs `portal validate` elsewhere. Hence warnings, not errors: the deliverer holds (and
 * logs) the deliveries of an endpoint whose variable is missing or not a whsec_ secret, and a
 * tenant still loads.
 */
export function webhookSecretWarnings(
  tenant: TenantWithDefaults | Loose,
  env: Readonly<Record<string, string | undefined>>,
): Problem[] {
  const warnings: Problem[] = [];
  list(record(tenant).webhooks).forEach((entry, index) => {
    const endpoint = record(entry);
    for (const field of ['secretEnv', 'previousSecretEnv'] as const) {
      const name = text(endpoint[field]);
      if (name === undefined || !ENV_NAME.test(name)) continue;
      const pointer = `/webhooks/${index}/${field}`;
      const value = env[name];
      if (!value) {
        warnings.push({
          pointer,
          at: 'value',
          message: `environment variable ${name} is not set here: a server without it holds this endpoint's deliveries rather than send them unsigned`,
          hint:
            field === 'secretEnv'
              ? `make a secret with \`portal webhooks secret\` and set ${name} to it where the server runs`
              : `set ${name} to the secret being replaced where the server runs, or remove previousSecretEnv once the rotation is over`,
        });
        continue;
      }
      const problem = webhookSecretProblem(value);
      if (problem)
        warnings.push({
          pointer,
          at: 'value',
          message: `environment variable ${name} does not hold a Standard Webhooks secret: ${problem}; a server with this value holds this endpoint's deliveries`,
          hint: `make a secret with \`portal webhooks secret\`, give it to the receiver and set ${name} to it`,
        });
    }
  });
  return warnings;
}

/** Lists whose entries are told apart by one field; a repeated value is a mistake. */
const UNIQUE_FIELDS: ReadonlyArray<{ path: string[]; field: string; noun: string }> = [
  { path: ['faq', 'categories'], field: 'id', noun: 'FAQ category id' },
  { path: ['faq', 'entries'], field: 'id', noun: 'FAQ entry id' },
  { path: ['contactForm', 'activities'], field: 'activity', noun: 'contact activity' },
  { path: ['salutations', 'options'], field: 'code', noun: 'salutation code' },
  { path: ['academicTitles', 'options'], field: 'code', noun: 'academic title code' },
  { path: ['shippingStatus', 'providers'], field: 'code', noun: 'shipping provider code' },
  { path: ['orderAttributes', 'attributes'], field: 'type', noun: 'order attribute type' },
  { path: ['optIns', 'types'], field: 'type', noun: 'opt-in type' },
  { path: ['optIns', 'widget', 'providers'], field: 'code', noun: 'opt-in widget provider' },
  { path: ['multiUserLicenses', 'roles'], field: 'code', noun: 'licence role' },
  { path: ['eCard', 'templates'], field: 'name', noun: 'e-card template' },
  { path: ['webhooks'], field: 'url', noun: 'webhook URL' },
];

function uniqueEntries(tenant: Loose): Problem[] {
  const problems: Problem[] = [];
  for (const { path, field, noun } of UNIQUE_FIELDS) {
    const entries = list(path.reduce<unknown>((node, key) => record(node)[key], tenant));
    const base = `/${path.join('/')}`;
    const seen = new Map<string, number>();
    entries.forEach((entry, index) => {
      const value = text(record(entry)[field]);
      if (value === undefined) return;
      const first = seen.get(value);
      if (first === undefined) seen.set(value, index);
      else
        problems.push({
          pointer: `${base}/${index}/${field}`,
          at: 'value',
          message: `duplicate ${noun} "${value}" (also at ${base}/${first}/${field})`,
          hint: 'each entry needs its own value',
        });
    });
  }
  return problems;
}

/**
 * A menu link's text is also its route inside the portal (/<text>), in every locale, so two links
 * may not share a text in any locale (portal-core.md §2; a link text may differ per locale).
 */
function uniqueLinkTexts(tenant: Loose): Problem[] {
  const problems: Problem[] = [];
  const seen = new Map<string, number>();
  list(tenant.externalNavigationLinks).forEach((link, index) => {
    for (const [locale, value] of Object.entries(record(record(link).text))) {
      if (typeof value !== 'string') continue;
      const first = seen.get(value);
      if (first === undefined) seen.set(value, index);
      else if (first !== index) {
        problems.push({
          pointer: `/externalNavigationLinks/${index}/text/${escapePointerSegment(locale)}`,
          at: 'value',
          message: `duplicate navigation link text "${value}" (also at /externalNavigationLinks/${first}/text)`,
          hint: 'each link needs its own text in every locale: the text is also its route (/<text>)',
        });
      }
    }
  });
  return problems;
}

/** Every cross-field problem of a tenant (defaults applied), in no particular order. */
export function crossFieldRules(tenant: TenantWithDefaults | Loose, ctx: RuleContext = {}): Problem[] {
  const loose = record(tenant);
  return [
    ...idMatchesFile(loose, ctx),
    ...localesOffered(loose),
    ...uniqueHosts(loose),
    ...canSignIn(loose),
    ...embeddingHasParents(loose),
    ...featuresHaveTheirSettings(loose),
    ...blacklistsOfEnabledFeatures(loose),
    ...themeRules(loose, ctx),
    ...textKeysKnown(loose, ctx),
    ...referencesResolve(loose),
    ...uniqueEntries(loose),
    ...uniqueLinkTexts(loose),
    ...webhookRules(loose),
    ...offerExperimentRules(loose),
    ...paymentProviderRules(loose),
  ];
}
