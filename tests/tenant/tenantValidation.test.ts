import { describe, expect, it } from 'vitest';
import { formatIssue, formatIssueWithHint, validateTenantSource, type ValidationContext } from '../../tenant';
import { makeTenant, makeThemePreset } from '../support/builders';

const FILE = 'tenants/acme.json';
const ctx: ValidationContext = {
  knownTextKeys: new Set(['shell.logout', 'shell.providedBy', 'shell.contact', 'login.title']),
  themePresets: { classic: makeThemePreset(), nordic: makeThemePreset({ name: 'Nordic' }) },
};

/** Formatted issues of a file text (wording and position tests write the file out in full). */
function issuesOf(source: string, file = FILE): string[] {
  return validateTenantSource(file, source, ctx).issues.map(formatIssue);
}

/** `pointer message` of each issue of a tenant object, for rules whose position does not matter. */
function problemsOf(tenant: unknown, file = FILE): string[] {
  return validateTenantSource(file, JSON.stringify(tenant, null, 2), ctx).issues.map(
    (i) => `${i.pointer} ${i.message}`,
  );
}

describe('validateTenantSource: a valid tenant', () => {
  it('comes back with every schema default applied', () => {
    const { tenant, issues } = validateTenantSource(FILE, JSON.stringify(makeTenant()), ctx);
    expect(issues).toEqual([]);
    expect(tenant?.embedding).toEqual({
      isEmbedded: false,
      showLangSelector: false,
      hideNavigation: false,
      hideBackToOverview: false,
      parentOrigins: [],
    });
    expect(tenant?.login).toMatchObject({
      magicLink: true,
      password: false,
      sessionIdleMinutes: 30,
      kickerAuth: { cookieName: 'kickeruser' },
    });
    expect(tenant?.publicationBlacklists).toEqual({});
    expect(tenant?.texts).toEqual({});
    expect(tenant?.defaultSubscriptionFilter).toBe('active');
    expect(tenant?.issueCalendar).toEqual({ mode: 'any', blacklistedPublications: [] });
    expect(tenant?.shippingStatus.providers.map((p) => p.code)).toEqual([
      '16',
      '17',
      '91',
      '92',
      '01',
      '02',
      '07',
      '08',
      '09',
    ]);
  });

  it('carries its theme tokens: the preset with the tenant overrides', () => {
    const source = JSON.stringify(
      makeTenant({
        theme: { preset: 'classic', tokens: { colors: { primary: '#7a1f2b' }, radii: { button: '999px' } } },
      }),
    );
    const { tenant } = validateTenantSource(FILE, source, ctx);
    expect(tenant?.themeTokens.colors.primary).toBe('#7a1f2b');
    expect(tenant?.themeTokens.colors.text).toBe('#1c1c1c');
    expect(tenant?.themeTokens.radii).toEqual({ card: '2px', button: '999px' });
  });
});

describe('validateTenantSource: error wording and position', () => {
  it('names an unknown property and suggests the closest one', () => {
    const source = `{
  "id": "acme",
  "name": "Acme Zeitung",
  "logoUrll": "https://www.acme.example/logo.svg",
  "defaultLocale": "de-DE",
  "contact": { "fallbackEmail": "service@acme.example", "fallbackPhone": "+49 30 1234567" },
  "theme": { "preset": "classic" },
  "features": ["faq"]
}`;
    const [issue, ...others] = validateTenantSource(FILE, source, ctx).issues.map(formatIssueWithHint);
    expect(others).toEqual([]);
    const [message, hint] = issue.split('\n');
    expect(message).toBe(
      'tenants/acme.json:4:3 /logoUrll unknown property "logoUrll". Did you mean "logoUrl"?',
    );
    // Every setting allowed at that place (the schema grows, so only its start is pinned), no file to go and read.
    expect(hint).toMatch(
      /^ {4}rename it, or remove it \(allowed here: \$schema, id, name, hosts, defaultLocale, locales, logoUrl, logoTargetUrl, .*, webhooks.*\)$/,
    );
    expect(hint).not.toContain('schemas/');
  });

  it('suggests the right spelling of a misspelt feature', () => {
    const source = `{
  "id": "acme",
  "name": "Acme Zeitung",
  "defaultLocale": "de-DE",
  "contact": { "fallbackEmail": "service@acme.example", "fallbackPhone": "+49 30 1234567" },
  "theme": { "preset": "classic" },
  "features": [
    "faq",
    "issue_calendar",
    "cancelation"
  ]
}`;
    expect(issuesOf(source)).toEqual([
      'tenants/acme.json:9:5 /features/1 unknown feature "issue_calendar". Did you mean "issue-calendar"?',
      'tenants/acme.json:10:5 /features/2 unknown feature "cancelation". Did you mean "cancellation"?',
    ]);
  });

  it('reports an unknown text key with a suggestion', () => {
    const source = `{
  "id": "acme",
  "name": "Acme Zeitung",
  "defaultLocale": "de-DE",
  "contact": { "fallbackEmail": "service@acme.example", "fallbackPhone": "+49 30 1234567" },
  "theme": { "preset": "classic" },
  "features": ["faq"],
  "texts": {
    "de-DE": { "shell.logut": "Tschüss" }
  }
}`;
    expect(validateTenantSource(FILE, source, ctx).issues.map(formatIssueWithHint)).toEqual([
      'tenants/acme.json:9:16 /texts/de-DE/shell.logut unknown text key "shell.logut". Did you mean "shell.logout"?\n' +
        '    text keys of shell: shell.contact, shell.logout, shell.providedBy',
    ]);
  });

  it('explains a URL without a usable protocol', () => {
    const source = `{
  "id": "acme",
  "name": "Acme Zeitung",
  "logoTargetUrl": "ftp:/x",
  "defaultLocale": "de-DE",
  "contact": { "fallbackEmail": "service@acme.example", "fallbackPhone": "+49 30 1234567" },
  "theme": { "preset": "classic" },
  "features": ["faq"]
}`;
    // Said once, by what the setting takes (its pattern), though "ftp:/x" is no URL either.
    expect(validateTenantSource(FILE, source, ctx).issues.map(formatIssueWithHint)).toEqual([
      'tenants/acme.json:4:20 /logoTargetUrl "ftp:/x" is not an http or https address\n' +
        "    Where a click on the logo leads, usually the publisher's website: an http:// or https:// address.",
    ]);
    // A host without its protocol: the fix is the value with it.
    const bare = validateTenantSource(FILE, source.replace('ftp:/x', 'www.acme.example'), ctx).issues;
    expect(bare.map(formatIssueWithHint)).toEqual([
      expect.stringMatching(
        /\/logoTargetUrl "www\.acme\.example" does not look like a valid URL\. .*\n {4}write https:\/\/www\.acme\.example$/,
      ),
    ]);
  });

  it('says in the message what a colour or an image address must be', () => {
    const source = `{
  "id": "acme",
  "name": "Acme Zeitung",
  "logoUrl": "http://acme.example/logo.png",
  "defaultLocale": "de-DE",
  "contact": { "fallbackEmail": "service@acme.example", "fallbackPhone": "+49 30 1234567" },
  "theme": { "preset": "classic", "tokens": { "colors": { "primary": "rgb(0,80,160)" } } },
  "features": ["faq"]
}`;
    const messages = validateTenantSource(FILE, source, ctx).issues.map((issue) => issue.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringContaining('"http://acme.example/logo.png" is not an https URL or a data:image/ URI'),
        expect.stringContaining('"rgb(0,80,160)" is not a colour written #rrggbb (six hexadecimal digits)'),
      ]),
    );
  });

  it('reports malformed JSON with line, column and a plain message', () => {
    const source = `{
  "id": "acme",
  "name": "Acme Zeitung"
  "features": []
}`;
    expect(validateTenantSource(FILE, source, ctx).issues.map(formatIssueWithHint)).toEqual([
      'tenants/acme.json:4:3 expected a comma before this entry\n    separate entries with commas: add one at the end of the previous entry',
    ]);
  });

  it('reports a trailing comma once, at the comma', () => {
    const source = `{
  "id": "acme",
  "features": ["faq",]
}`;
    expect(issuesOf(source)).toEqual(['tenants/acme.json:3:21 trailing comma before "]"']);
  });

  it('refuses a publication blacklist of a feature that is off', () => {
    const source = `{
  "id": "acme",
  "name": "Acme Zeitung",
  "defaultLocale": "de-DE",
  "contact": { "fallbackEmail": "service@acme.example", "fallbackPhone": "+49 30 1234567" },
  "theme": { "preset": "classic" },
  "features": ["faq", "cancellation"],
  "publicationBlacklists": {
    "cancellation": ["SKE"],
    "renewal": ["SKT"]
  }
}`;
    expect(validateTenantSource(FILE, source, ctx).issues.map(formatIssueWithHint)).toEqual([
      'tenants/acme.json:10:5 /publicationBlacklists/renewal blacklist for feature "renewal", which is not in features\n' +
        '    add "renewal" to features or remove this blacklist',
    ]);
  });

  it('names the colour pair and the ratio when text contrast is too low', () => {
    const source = `{
  "id": "acme",
  "name": "Acme Zeitung",
  "defaultLocale": "de-DE",
  "contact": { "fallbackEmail": "service@acme.example", "fallbackPhone": "+49 30 1234567" },
  "theme": {
    "preset": "classic",
    "tokens": { "colors": { "mutedText": "#999999" } }
  },
  "features": ["faq"]
}`;
    expect(validateTenantSource(FILE, source, ctx).issues.map(formatIssueWithHint)).toEqual([
      'tenants/acme.json:8:42 /theme/tokens/colors/mutedText insufficient contrast between mutedText (#999999) and background (#ffffff): 2.84:1, WCAG AA needs at least 4.5:1\n' +
        '    background is already white: make mutedText darker (contrast 2.84:1, needs 4.5:1), for example #767676',
    ]);
  });

  it('judges the contrast of the other colours while one is malformed, so both mistakes show at once', () => {
    const source = `{
  "id": "acme",
  "name": "Acme Zeitung",
  "defaultLocale": "de-DE",
  "contact": { "fallbackEmail": "service@acme.example", "fallbackPhone": "+49 30 1234567" },
  "theme": {
    "preset": "classic",
    "tokens": { "colors": { "mutedText": "#999999", "link": "green-ish" } }
  },
  "features": ["faq"]
}`;
    const issues = validateTenantSource(FILE, source, ctx).issues.map((i) => `${i.pointer} ${i.message}`);
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/theme\/tokens\/colors\/link /),
        expect.stringMatching(/^\/theme\/tokens\/colors\/mutedText insufficient contrast/),
      ]),
    );
  });

  it('refuses a default locale that is not offered', () => {
    const source = `{
  "id": "acme",
  "name": "Acme Zeitung",
  "defaultLocale": "en-GB",
  "locales": ["de-DE"],
  "contact": { "fallbackEmail": "service@acme.example", "fallbackPhone": "+49 30 1234567" },
  "theme": { "preset": "classic" },
  "features": ["faq"]
}`;
    expect(validateTenantSource(FILE, source, ctx).issues.map(formatIssueWithHint)).toEqual([
      'tenants/acme.json:4:20 /defaultLocale default locale "en-GB" is not offered in locales (de-DE)\n' +
        '    add "en-GB" to locales or set defaultLocale to "de-DE"',
    ]);
  });

  it('reports several errors at once, in file order', () => {
    const source = `{
  "id": "acme",
  "name": "Acme Zeitung",
  "defaultLocale": "en-GB",
  "locales": ["de-DE"],
  "contact": { "fallbackEmail": "service@acme" },
  "login": { "magicLink": "yes", "sessionIdleMinutes": 3 },
  "theme": { "preset": "clasic" },
  "features": ["faq", "cancelation"],
  "publicationBlacklists": { "renewal": ["SKT"] }
}`;
    expect(issuesOf(source)).toEqual([
      'tenants/acme.json:4:20 /defaultLocale default locale "en-GB" is not offered in locales (de-DE)',
      'tenants/acme.json:6:3 /contact/fallbackPhone missing required property "fallbackPhone"',
      'tenants/acme.json:6:33 /contact/fallbackEmail "service@acme" does not look like a valid e-mail address; for example service@example.com',
      'tenants/acme.json:7:27 /login/magicLink expected true or false but found the string "yes"',
      'tenants/acme.json:7:56 /login/sessionIdleMinutes 3 is too small; the minimum is 5',
      'tenants/acme.json:8:24 /theme/preset unknown theme preset "clasic". Did you mean "classic"?',
      'tenants/acme.json:9:23 /features/1 unknown feature "cancelation". Did you mean "cancellation"?',
      'tenants/acme.json:10:30 /publicationBlacklists/renewal blacklist for feature "renewal", which is not in features',
    ]);
  });

  it('reports a duplicate key, which JSON.parse would silently drop', () => {
    const source = `{
  "id": "acme",
  "name": "Acme Zeitung",
  "name": "Acme Anzeiger",
  "defaultLocale": "de-DE",
  "contact": { "fallbackEmail": "service@acme.example", "fallbackPhone": "+49 30 1234567" },
  "theme": { "preset": "classic" },
  "features": ["faq"]
}`;
    expect(issuesOf(source)).toEqual(['tenants/acme.json:4:3 /name duplicate property "name"']);
  });

  it('reports an empty file plainly', () => {
    expect(issuesOf('  \n')).toEqual(['tenants/acme.json:1:1 the file is empty']);
  });
});

describe('validateTenantSource: schema errors come with a fix', () => {
  it('says which type was expected and how to write it', () => {
    const tenant = { ...makeTenant({ login: { magicLink: 'yes' } as never }), hosts: 'acme.localhost' };
    const issues = validateTenantSource(FILE, JSON.stringify(tenant, null, 2), ctx).issues;
    expect(issues.map((i) => [i.pointer, i.message, i.hint])).toEqual([
      [
        '/hosts',
        'expected a list but found the string "acme.localhost"',
        'write a list in square brackets, for example ["…"]',
      ],
      [
        '/login/magicLink',
        'expected true or false but found the string "yes"',
        'write true or false without quotes',
      ],
    ]);
  });

  it('asks for a text per locale where a plain string was written', () => {
    const tenant = makeTenant({
      faq: { entries: [{ id: 'q', title: 'Frage' as never, content: { 'de-DE': '<p>Antwort</p>' } }] },
    });
    const [issue] = validateTenantSource(FILE, JSON.stringify(tenant), ctx).issues;
    expect([issue.pointer, issue.message, issue.hint]).toEqual([
      '/faq/entries/0/title',
      'expected an object but found the string "Frage"',
      'write one text per locale, for example {"de-DE": "…", "en-GB": "…"}',
    ]);
  });

  it('refuses a file that is no object with that one problem and no warnings', () => {
    for (const source of ['[1, 2]', '"acme"', 'null']) {
      const { issues, warnings } = validateTenantSource(FILE, source, ctx);
      expect(issues.map((i) => i.message)).toEqual([expect.stringMatching(/^expected an object but found/)]);
      expect(warnings).toEqual([]);
    }
  });

  it('lists the allowed values of an enum and explains a pattern from the description', () => {
    const tenant = makeTenant({ defaultSubscriptionFilter: 'current' as never, id: 'Acme' });
    const issues = validateTenantSource('tenants/Acme.json', JSON.stringify(tenant), ctx).issues;
    expect(issues.map((i) => [i.pointer, i.message, i.hint])).toEqual([
      ['/id', '"Acme" is not in the expected format', expect.stringContaining('Tenant id in kebab-case')],
      ['/defaultSubscriptionFilter', 'invalid value "current"', 'use one of: active, inactive, all'],
    ]);
  });

  it('says what a missing required property is for', () => {
    const tenant = makeTenant({ contact: { fallbackEmail: 'service@acme.example' } as never });
    const [issue] = validateTenantSource(FILE, JSON.stringify(tenant), ctx).issues;
    // At the missing setting (for the studio's input), placed at its parent's key in the file.
    expect([issue.pointer, issue.message, issue.hint]).toEqual([
      '/contact/fallbackPhone',
      'missing required property "fallbackPhone"',
      'add "fallbackPhone" (phone shown in feature-disabled notices and error dialogs)',
    ]);
  });

  it('names a feature listed twice', () => {
    expect(problemsOf(makeTenant({ features: ['faq', 'renewal', 'faq'] }))).toEqual([
      '/features/2 feature "faq" is listed twice (also at /features/0)',
    ]);
  });
});

describe('validateTenantSource: the contact script URL', () => {
  // The page's Content-Security-Policy names it as a script source (portal-core.md §2 "Contact").
  const scriptIssues = (customScriptUrl: string) =>
    validateTenantSource(
      FILE,
      JSON.stringify(makeTenant({ contactForm: { customScriptUrl } })),
      ctx,
    ).issues.map((i) => [i.pointer, i.message, i.hint]);

  it('takes the https URL of a script file, with a port, percent-encoding and a query', () => {
    for (const url of [
      'https://chat.acme.example/widget.js',
      'https://cdn.acme.example:8443/chat/v2/loader.min.js?key=abc&lang=de',
      'https://cdn.acme.example/my%20widget.js',
    ])
      expect(scriptIssues(url), url).toEqual([]);
  });

  it('refuses a URL that is not https, saying why', () => {
    for (const url of [
      'http://chat.acme.example/widget.js',
      'javascript:alert(1)',
      '//chat.acme.example/w.js',
    ])
      expect(scriptIssues(url), url).toEqual([
        [
          '/contactForm/customScriptUrl',
          `${JSON.stringify(url)} is not an https URL: the page's Content-Security-Policy allows a tenant script only over https`,
          "write the script's https URL, for example https://chat.example.com/widget.js",
        ],
      ]);
  });

  it('refuses what would break the header: spaces, quotes, commas, semicolons', () => {
    for (const url of [
      "https://chat.acme.example/w.js; script-src * 'unsafe-inline'",
      'https://chat.acme.example/w.js,https://evil.example/x.js',
      'https://chat.acme.example/my widget.js',
      'https://chat.acme.example/w"x.js',
    ]) {
      const [issue, ...more] = scriptIssues(url);
      expect(more, url).toEqual([]);
      expect(issue[1], url).toContain("which cannot stand in the page's Content-Security-Policy");
      expect(issue[2], url).toBe('percent-encode them: %20, %22, %27, %2C, %3B');
    }
  });

  it('refuses a URL that names a whole site or a folder', () => {
    for (const url of [
      'https://chat.acme.example',
      'https://chat.acme.example/',
      'https://chat.acme.example/widgets/',
      'https://chat.acme.example?x=1',
    ])
      expect(scriptIssues(url)[0]?.[1], url).toBe(
        `${JSON.stringify(url)} names no script file: the page's Content-Security-Policy would allow a whole site or folder`,
      );
  });

  it('refuses a user name, a fragment or an empty path segment', () => {
    for (const url of [
      'https://user:secret@chat.acme.example/w.js',
      'https://chat.acme.example/w.js#top',
      'https://chat.acme.example//w.js',
    ])
      expect(scriptIssues(url)[0]?.[1], url).toBe(
        `${JSON.stringify(url)} is not a script URL the page's Content-Security-Policy can name`,
      );
  });
});

describe('validateTenantSource: cross-field rules', () => {
  it('refuses texts for a locale that is not offered', () => {
    expect(
      problemsOf(makeTenant({ locales: ['de-DE'], texts: { 'en-GB': { 'shell.logout': 'Sign out' } } })),
    ).toEqual(['/texts/en-GB texts for "en-GB" are given but "en-GB" is not offered in locales']);
  });

  it('refuses an id that differs from the file name', () => {
    expect(problemsOf(makeTenant(), 'tenants/acme-news.json')).toEqual([
      '/id id "acme" does not match the file name "acme-news.json"',
    ]);
  });

  it('offers the file name as the id only where it is one an id may be', () => {
    const hintOf = (file: string) =>
      validateTenantSource(file, JSON.stringify(makeTenant()), ctx).issues.find((i) => i.pointer === '/id')
        ?.hint;
    expect(hintOf('tenants/acme-news.json')).toBe('rename the file to acme.json or set "id": "acme-news"');
    expect(hintOf('tenants/Acme.json')).toBe('rename the file to acme.json');
  });

  it('reads a file that starts with a byte-order mark, as Windows editors write it', () => {
    const { issues, tenant } = validateTenantSource(FILE, `\uFEFF${JSON.stringify(makeTenant())}`, ctx);
    expect(issues).toEqual([]);
    expect(tenant?.id).toBe('acme');
  });

  it('takes an https or data:image/ logo and http(s) links only, and warns of a private address', () => {
    const validate = (overrides: Record<string, unknown>) =>
      validateTenantSource(FILE, JSON.stringify(makeTenant(overrides as never)), ctx);
    // The page's Content-Security-Policy loads images over https and from data: only.
    for (const logoUrl of [
      'http://cdn.example.com/logo.svg',
      'data:text/html,<b>x</b>',
      'javascript:alert(1)',
    ])
      expect(validate({ logoUrl }).issues.map((i) => i.pointer)).toContain('/logoUrl');
    expect(validate({ privacyPolicyUrl: 'javascript:alert(1)' }).issues.map((i) => i.pointer)).toContain(
      '/privacyPolicyUrl',
    );
    expect(validate({ logoUrl: 'https://cdn.example.com/logo.svg' }).issues).toEqual([]);
    const inside = validate({
      logoUrl: 'https://192.168.1.10/logo.png',
      orderNumberExampleImageUrl: { 'de-DE': 'https://localhost/auftrag.png' },
      siteNoticeUrl: 'http://10.0.0.7/impressum',
    });
    expect(inside.issues).toEqual([]);
    expect(inside.warnings.map((w) => [w.pointer, w.message])).toEqual(
      expect.arrayContaining([
        [
          '/logoUrl',
          'image "https://192.168.1.10/logo.png" is not at a public address (192.168.1.10 is a private address (192.168.0.0/16)): subscribers\' browsers cannot load it',
        ],
        ['/orderNumberExampleImageUrl/de-DE', expect.stringContaining('localhost')],
        ['/siteNoticeUrl', expect.stringContaining('cannot open it')],
      ]),
    );
  });

  it("warns of a sign-on provider portal serve will not reach, except in a demo tenant (the development servers' own)", () => {
    const withIssuer = (issuer: string, extra: Record<string, unknown> = {}) =>
      validateTenantSource(
        FILE,
        JSON.stringify(
          makeTenant({
            features: ['oauth'],
            login: { oauth: { issuer, clientId: 'portal' } },
            ...extra,
          } as never),
        ),
        ctx,
      );
    for (const issuer of ['https://169.254.169.254/', 'http://127.0.0.1:4455', 'https://10.1.2.3/realms/x']) {
      const result = withIssuer(issuer);
      expect(result.issues).toEqual([]);
      expect(result.warnings.map((w) => [w.pointer, w.message])).toEqual([
        [
          '/login/oauth/issuer',
          expect.stringMatching(
            /is not at a public address .*: `portal serve` does not connect to it, and every sign-on answers 502 sso_unavailable$/,
          ),
        ],
      ]);
    }
    expect(withIssuer('https://login.example.com/realms/abo').warnings).toEqual([]);
    expect(withIssuer('http://127.0.0.1:4455', { demo: true }).warnings).toEqual([]);
  });

  it('refuses a host listed twice, whatever its case and with DNS’s trailing dot', () => {
    expect(problemsOf(makeTenant({ hosts: ['acme.localhost', 'ACME.localhost'] }))).toEqual([
      '/hosts/1 host "ACME.localhost" is listed twice (also at /hosts/0)',
    ]);
    expect(problemsOf(makeTenant({ hosts: ['acme.localhost', 'acme.localhost.'] }))).toEqual([
      '/hosts/1 host "acme.localhost." is listed twice (also at /hosts/0)',
    ]);
  });

  it('requires the settings a switched-on feature cannot work without', () => {
    expect(
      problemsOf(
        makeTenant({
          features: [
            'announcement',
            'oauth',
            'contact-form',
            'e-card',
            'external-navigation',
            'external-subscription-link',
          ],
        }),
      ),
    ).toEqual([
      '/features/0 feature "announcement" is on but there is no announcement',
      '/features/1 feature "oauth" is on but login.oauth is missing',
      '/features/2 feature "contact-form" is on but contactForm.activities is empty',
      '/features/3 feature "e-card" is on but eCard.templates is empty',
      '/features/4 feature "external-navigation" is on but externalNavigationLinks is empty',
      '/features/5 feature "external-subscription-link" is on but externalSubscriptionLink is missing',
    ]);
  });

  it('refuses a tenant nobody can sign in to', () => {
    expect(problemsOf(makeTenant({ login: { magicLink: false } }))).toEqual([
      '/login no way to sign in: magicLink and password are off and neither the oauth nor the kicker-auth feature is on',
    ]);
    expect(problemsOf(makeTenant({ login: { magicLink: false }, features: ['kicker-auth'] }))).toEqual([]);
  });

  it('refuses an embedded portal without parent origins', () => {
    expect(problemsOf(makeTenant({ embedding: { isEmbedded: true } }))).toEqual([
      '/embedding/isEmbedded the portal is embedded but embedding.parentOrigins is empty',
    ]);
  });

  it('checks references between settings, with suggestions', () => {
    const tenant = makeTenant({
      features: ['faq', 'contact-form'],
      contactForm: { activities: [{ activity: 'REVOCATION', name: { 'de-DE': 'Widerruf' } }] },
      cancellation: { revocationContactActivity: 'REVOKATION' },
      faq: {
        categories: [{ id: 'shipping', title: { 'de-DE': 'Versand' } }],
        entries: [
          {
            id: 'q',
            category: 'shiping',
            title: { 'de-DE': 'Frage' },
            content: { 'de-DE': '<p>Antwort</p>' },
          },
        ],
      },
    });
    // In the file's order: the FAQ comes before the overrides (tests/support/builders.ts).
    expect(problemsOf(tenant)).toEqual([
      '/faq/entries/0/category unknown FAQ category "shiping". Did you mean "shipping"?',
      '/cancellation/revocationContactActivity unknown contact activity "REVOKATION". Did you mean "REVOCATION"?',
    ]);
  });

  it('refuses two entries with the same id', () => {
    const entry = { id: 'delivery', title: { 'de-DE': 'Frage' }, content: { 'de-DE': '<p>Antwort</p>' } };
    expect(problemsOf(makeTenant({ faq: { entries: [entry, entry] } }))).toEqual([
      '/faq/entries/1/id duplicate FAQ entry id "delivery" (also at /faq/entries/0/id)',
    ]);
  });

  it('does not repeat a schema error as a cross-field error', () => {
    expect(problemsOf(makeTenant({ publicationBlacklists: { cancelation: ['SKT'] } as never }))).toEqual([
      '/publicationBlacklists/cancelation unknown feature "cancelation". Did you mean "cancellation"?',
    ]);
  });

  it('checks the contrast of every text pair after overrides', () => {
    const tenant = makeTenant({
      theme: { preset: 'classic', tokens: { colors: { primary: '#f0c020', background: '#202020' } } },
    });
    expect(problemsOf(tenant)).toEqual([
      '/theme/tokens/colors/primary insufficient contrast between onPrimary (#ffffff) and primary (#f0c020): 1.71:1, WCAG AA needs at least 4.5:1',
      '/theme/tokens/colors/background insufficient contrast between text (#1c1c1c) and background (#202020): 1.04:1, WCAG AA needs at least 4.5:1',
      '/theme/tokens/colors/background insufficient contrast between link (#1b3a6b) and background (#202020): 1.44:1, WCAG AA needs at least 4.5:1',
      '/theme/tokens/colors/background insufficient contrast between mutedText (#595959) and background (#202020): 2.32:1, WCAG AA needs at least 4.5:1',
    ]);
  });

  it("checks the status dots against a card's surface, the open invoice's default indigo among them", () => {
    const dark = {
      background: '#10101c',
      surface: '#1a1a2e',
      text: '#f5f5f5',
      mutedText: '#b0b0c0',
      link: '#9ecbff',
      success: '#6fcf73',
      warning: '#f2b14c',
      error: '#ff8a80',
    };
    const tenant = makeTenant({
      theme: { preset: 'classic', tokens: { colors: { ...dark, info: '#7cc4f0' } } },
    });
    expect(problemsOf(tenant)).toEqual([
      '/theme/tokens/colors/surface insufficient contrast between open (#4338ca) and surface (#1a1a2e): 2.15:1, WCAG AA needs at least 3:1',
    ]);
    const withOpen = makeTenant({
      theme: { preset: 'classic', tokens: { colors: { ...dark, info: '#7cc4f0', open: '#a5b4fc' } } },
    });
    expect(problemsOf(withOpen)).toEqual([]);
  });
});
