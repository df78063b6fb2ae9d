/**
 * Fixtures of the public pages (FAQ, contact, issue calendar): demo-data lookups and small files
 * for upload tests. The seed is a pure function of (tenant, today), so a test can ask which
 * subscriptions exist without reading the database.
 */
import { buildDemoData, type DemoTenant } from '../../server/seed';

/**
 * A subscription no account speaks for yet, with a zip code of one of its business partners; `nth`
 * picks another one for each test that links one (linking is for good).
 */
export function unlinkedSubscription(
  tenant: DemoTenant,
  today: Date,
  nth = 0,
): { orderNumber: string; zipcode: string; publication: string; email: string | null } {
  let skip = nth;
  const data = buildDemoData(tenant, today);
  const linkedBps = new Set(data.userBusinessPartners.map((link) => link.bp_number));
  // From the end of the list: the link-subscription journeys (ordersAndSubscription.spec.ts) link
  // the first unlinked ones, and every suite shares one database, so the two must never meet.
  for (const subscription of [...data.subscriptions].reverse()) {
    const roles = data.subscriptionRoles.filter((role) => role.subscription_id === subscription.id);
    if (roles.length === 0 || roles.some((role) => linkedBps.has(role.bp_number))) continue;
    const partner = data.businessPartners.find((bp) => bp.bp_number === roles[0].bp_number)!;
    // Another subscription with the same order number (other client) must not be linked either.
    const twins = data.subscriptions.filter((other) => other.order_number === subscription.order_number);
    if (twins.length > 1) continue;
    if (skip-- > 0) continue;
    return {
      orderNumber: subscription.order_number,
      zipcode: partner.zipcode,
      publication: subscription.publication,
      email: partner.email_address,
    };
  }
  throw new Error(`demo data of ${tenant.id} has no unlinked subscription`);
}

/** A subscription some demo account already speaks for. */
export function linkedSubscription(
  tenant: DemoTenant,
  today: Date,
): { orderNumber: string; zipcode: string; email: string } {
  const data = buildDemoData(tenant, today);
  for (const link of data.userBusinessPartners) {
    const role = data.subscriptionRoles.find((r) => r.bp_number === link.bp_number);
    if (!role) continue;
    const subscription = data.subscriptions.find((s) => s.id === role.subscription_id)!;
    const partner = data.businessPartners.find((bp) => bp.bp_number === link.bp_number)!;
    return { orderNumber: subscription.order_number, zipcode: partner.zipcode, email: link.email };
  }
  throw new Error(`demo data of ${tenant.id} has no linked subscription`);
}

/** The smallest valid PNG (1×1 transparent pixel). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** A minimal PDF. */
export const TINY_PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1');

/** A PNG header followed by zeros, one byte over the 2 MB limit (portal-core.md §9: 2097152 bytes). */
export function oversizedPng(): Buffer {
  const data = Buffer.alloc(2_097_153);
  TINY_PNG.copy(data, 0, 0, 8);
  return data;
}

/** A text file dressed up as a PNG by its name. */
export const DISGUISED_PNG = Buffer.from('#!/bin/sh\necho this is not an image\n', 'utf8');
