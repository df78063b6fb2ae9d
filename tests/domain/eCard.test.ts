/**
 * E-card and widget rules shared by the screens and the server (account-flows.md §5 "E-card",
 * "Email widget", "Opt-in widget", §9 "E-card earliest send: one day ahead").
 */
import { describe, expect, it } from 'vitest';
import {
  ECARD_DAILY_CAP,
  ECARD_MESSAGE_MAX_LENGTH,
  ECARD_SEND_GRACE_MS,
  eCardCategories,
  eCardImageUrl,
  eCardProblems,
  earliestSendAt,
  templatesIn,
  withinDailyCap,
  type ECardDraft,
} from '../../engine/domain/eCard';
import { isRouteServed, menuItems, subscriptionActions } from '../../engine/features';
import { checkCapability, type CapabilityTenant } from '../../engine/domain/capabilities';
import { ROUTES } from '../../engine/domain/routeRefs';
import { makeSubscription } from '../support/subscriptionBuilder';
import {
  emailWidgetProblems,
  emailWidgetShowsOptIn,
  optInWidgetProblems,
  optInWidgetProvider,
} from '../../engine/domain/widgets';

const NOW = new Date('2026-03-10T12:00:00Z');
const HOUR = 3_600_000;
const TEMPLATES = [
  { name: 'balloons', category: 'birthday', previewImageUrl: 'birthday.png' },
  { name: 'cake', category: 'birthday', previewImageUrl: 'https://cdn.example.com/cake.png' },
  { name: 'thank-you', category: 'thanks', previewImageUrl: 'thanks.png' },
];
const draft = (overrides: Partial<ECardDraft> = {}): ECardDraft => ({
  template: 'balloons',
  from: 'Alex',
  to: 'Sam',
  toEmail: 'sam@example.org',
  message: 'Hi',
  timing: 'now',
  ...overrides,
});

describe('e-card rules', () => {
  it('lists the categories in template order and filters templates by category', () => {
    expect(eCardCategories(TEMPLATES)).toEqual(['birthday', 'thanks']);
    expect(templatesIn(TEMPLATES, 'birthday').map((t) => t.name)).toEqual(['balloons', 'cake']);
    expect(templatesIn(TEMPLATES, undefined)).toHaveLength(3);
  });

  it('accepts a complete card sent now', () => {
    expect(eCardProblems(draft(), TEMPLATES, NOW)).toEqual({});
  });

  it('requires every field and an e-mail address, and names each problem at once', () => {
    expect(
      eCardProblems(draft({ template: '', from: ' ', to: '', toEmail: 'nope', message: '' }), TEMPLATES, NOW),
    ).toEqual({
      template: 'required',
      from: 'required',
      to: 'required',
      toEmail: 'invalid',
      message: 'required',
    });
    expect(eCardProblems(draft({ template: 'unknown' }), TEMPLATES, NOW)).toEqual({ template: 'invalid' });
    // Names go into the subject line: no line breaks.
    expect(eCardProblems(draft({ from: 'Alex\nBcc: x@y.z' }), TEMPLATES, NOW)).toEqual({ from: 'invalid' });
    // Nor a direction override or a line separator, which turn or break the subject where it is shown.
    expect(eCardProblems(draft({ to: 'Anna\u202Eadmin' }), TEMPLATES, NOW)).toEqual({ to: 'invalid' });
    expect(eCardProblems(draft({ to: 'Anna\u2028Ben' }), TEMPLATES, NOW)).toEqual({ to: 'invalid' });
  });

  it(`limits names to 50 and the message to ${ECARD_MESSAGE_MAX_LENGTH} characters`, () => {
    expect(
      eCardProblems(
        draft({ from: 'x'.repeat(51), message: 'y'.repeat(ECARD_MESSAGE_MAX_LENGTH + 1) }),
        TEMPLATES,
        NOW,
      ),
    ).toEqual({ from: 'too_long', message: 'too_long' });
    expect(
      eCardProblems(
        draft({ from: 'x'.repeat(50), message: 'y'.repeat(ECARD_MESSAGE_MAX_LENGTH) }),
        TEMPLATES,
        NOW,
      ),
    ).toEqual({});
  });

  it('sends a timed card at least one day ahead, with grace for the time the form was open', () => {
    expect(earliestSendAt(NOW).toISOString()).toBe('2026-03-11T12:00:00.000Z');
    const at = (ms: number) => draft({ timing: 'timed', sendAt: new Date(NOW.getTime() + ms).toISOString() });
    expect(eCardProblems(at(24 * HOUR), TEMPLATES, NOW)).toEqual({});
    expect(eCardProblems(at(24 * HOUR - ECARD_SEND_GRACE_MS), TEMPLATES, NOW)).toEqual({});
    expect(eCardProblems(at(24 * HOUR - ECARD_SEND_GRACE_MS - 1), TEMPLATES, NOW)).toEqual({
      sendAt: 'too_early',
    });
    expect(eCardProblems(at(2 * HOUR), TEMPLATES, NOW)).toEqual({ sendAt: 'too_early' });
    expect(eCardProblems(at(367 * 24 * HOUR), TEMPLATES, NOW)).toEqual({ sendAt: 'too_late' });
    expect(eCardProblems(draft({ timing: 'timed', sendAt: null }), TEMPLATES, NOW)).toEqual({
      sendAt: 'required',
    });
    expect(eCardProblems(draft({ timing: 'timed', sendAt: 'tomorrow' }), TEMPLATES, NOW)).toEqual({
      sendAt: 'invalid',
    });
  });

  it(`allows ${ECARD_DAILY_CAP} cards a day`, () => {
    expect(withinDailyCap(ECARD_DAILY_CAP - 1)).toBe(true);
    expect(withinDailyCap(ECARD_DAILY_CAP)).toBe(false);
  });

  it('serves a shipped image file through the API and keeps an https image as it is', () => {
    expect(eCardImageUrl('birthday.png', '/t/technikwelt/api')).toBe(
      '/t/technikwelt/api/e-card/images/birthday.png',
    );
    expect(eCardImageUrl('https://cdn.example.com/cake.png', '/api')).toBe(
      'https://cdn.example.com/cake.png',
    );
    // Anything else is not a file of the tenant's folder: it is left alone (and the tenant schema refuses it).
    expect(eCardImageUrl('../secret.png', '/api')).toBe('../secret.png');
  });
});

describe('widget rules', () => {
  it('e-mail widget: e-mail, order number (8 to 10 digits) and zip (at most 10) required', () => {
    expect(emailWidgetProblems({ email: '', orderNumber: '', zipcode: '' })).toEqual({
      email: 'required',
      orderNumber: 'required',
      zipcode: 'required',
    });
    expect(emailWidgetProblems({ email: 'a@b', orderNumber: '1234567', zipcode: '12345678901' })).toEqual({
      email: 'invalid',
      orderNumber: 'invalid',
      zipcode: 'too_long',
    });
    expect(emailWidgetProblems({ email: 'a@b.de', orderNumber: '4000000001', zipcode: '10115' })).toEqual({});
  });

  it('e-mail widget: shows the opt-in checkbox only when the tenant supports opt-ins', () => {
    expect(emailWidgetShowsOptIn({ features: ['email-widget', 'opt-ins'] })).toBe(true);
    expect(emailWidgetShowsOptIn({ features: ['email-widget'] })).toBe(false);
  });

  it('opt-in widget: finds the provider only when opt-ins are on and the provider is configured', () => {
    const tenant = {
      features: ['opt-ins'],
      optIns: { widget: { providers: [{ code: 'messe', voucherCodeKey: 'M' }] } },
    };
    expect(optInWidgetProvider(tenant, 'messe')).toEqual({ code: 'messe', voucherCodeKey: 'M' });
    expect(optInWidgetProvider(tenant, 'other')).toBeNull();
    expect(optInWidgetProvider(tenant, null)).toBeNull();
    expect(optInWidgetProvider({ ...tenant, features: [] }, 'messe')).toBeNull();
  });

  it('opt-in widget: salutation, names (at most 35), e-mail and consent required', () => {
    expect(
      optInWidgetProblems({
        salutationCode: '',
        firstName: 'x'.repeat(36),
        lastName1: '',
        email: 'x',
        optIn: false,
      }),
    ).toEqual({
      salutationCode: 'required',
      firstName: 'too_long',
      lastName1: 'required',
      email: 'invalid',
      optIn: 'required',
    });
    expect(
      optInWidgetProblems({
        salutationCode: '0001',
        firstName: 'x'.repeat(35),
        lastName1: 'Muster',
        email: 'mia@example.org',
        optIn: true,
      }),
    ).toEqual({});
  });
});

describe('e-card in the registry', () => {
  const actions = async (
    features: string[],
    extra: Record<string, unknown> = {},
    subscription = makeSubscription(),
  ) => {
    const { hiddenActions = [], ...settings } = extra as { hiddenActions?: string[] };
    const tenant = {
      features,
      buttons: { hiddenActions },
      cancellation: {},
      ...settings,
    } as never as Parameters<typeof subscriptionActions>[0] & CapabilityTenant;
    return (await subscriptionActions(tenant, subscription, { tenant })).map((a) => a.id);
  };

  it('never offers "send an e-card" on a subscription page, whatever the flag (portal-core.md §6: "e-card: never by this rule set")', async () => {
    expect(await actions(['e-card'])).toEqual([]);
    expect(await actions(['e-card', 'contact-form'])).toEqual(['contact']);
    expect(await actions(['e-card'], {}, makeSubscription({ orderStatus: 'I', roles: ['WE'] }))).toEqual([]);
  });

  it('gates the e-card routes by the tenant alone: the flag and its publication blacklist (account-flows.md §6)', () => {
    const subscription = makeSubscription();
    const ctx = (extra: Record<string, unknown>) => ({
      tenant: { features: ['e-card'], ...extra } as never as CapabilityTenant,
    });
    expect(checkCapability('eCard', subscription, ctx({}))).toEqual({ allowed: true });
    expect(checkCapability('eCard', makeSubscription({ orderStatus: 'I', roles: ['WE'] }), ctx({}))).toEqual({
      allowed: true,
    });
    expect(
      checkCapability(
        'eCard',
        subscription,
        ctx({ publicationBlacklists: { 'e-card': [subscription.publication] } }),
      ),
    ).toEqual({ allowed: false, reason: 'featureDisabled' });
    expect(
      checkCapability('eCard', subscription, { tenant: { features: [] } as never as CapabilityTenant }),
    ).toEqual({ allowed: false, reason: 'featureDisabled' });
  });

  it('has no menu item (portal-core.md §2 lists none) but serves both routes', () => {
    expect(menuItems(['e-card', 'email-widget', 'opt-ins']).map((item) => item.route.id)).toEqual([
      'orders',
      'business-partners',
    ]);
    expect(isRouteServed(['e-card'], ROUTES.eCard)).toBe(true);
    expect(isRouteServed(['e-card'], ROUTES.subscriptionECard)).toBe(true);
    expect(isRouteServed(['opt-ins'], ROUTES.optInWidget)).toBe(true);
    expect(isRouteServed(['email-widget'], ROUTES.emailWidget)).toBe(true);
    expect(isRouteServed([], ROUTES.optInWidget)).toBe(false);
  });
});
