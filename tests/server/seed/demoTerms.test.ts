/**
 * The demo's terms read as a person would: a subscription the order system calls active has not
 * ended yet, and one whose end names its last issue ends on that issue's day.
 */
import { describe, expect, it } from 'vitest';
import { loadTenantFiles } from '../../../tenant';
import { buildDemoData } from '../../../server/seed';

const { tenants } = loadTenantFiles();
const TODAY = new Date('2026-11-29T10:00:00Z');
const today = TODAY.toISOString().slice(0, 10);

describe.each(tenants.map((t) => [t.id, t] as const))('the demo terms of %s', (_, tenant) => {
  const data = buildDemoData(tenant, TODAY);

  it('has no active subscription whose end has passed', () => {
    const ended = data.subscriptions.filter(
      (s) => ['A', 'AK', 'IZ'].includes(s.order_status) && s.valid_to !== null && s.valid_to < today,
    );
    expect(ended.map((s) => `${s.order_number} ${s.order_status} to ${s.valid_to}`)).toEqual([]);
  });

  it('ends a term that names its last issue on that issue’s day', () => {
    const issueDay = new Map(
      data.issues.map((i) => [`${i.publication}:${i.issue_number}`, i.date_of_first_sale]),
    );
    for (const s of data.subscriptions) {
      const last = (s.details as { renewal?: { expiryIssueNr?: string | null } }).renewal?.expiryIssueNr;
      if (!last || !s.valid_to) continue;
      expect(issueDay.get(`${s.publication}:${last}`), `${s.order_number} ends with ${last}`).toBe(
        s.valid_to,
      );
    }
  });

  it('words a term’s end only with the issue it names (else the screens show its date)', () => {
    const worded = data.subscriptions.flatMap((s) => {
      const renewal = (
        s.details as { renewal?: { expiryIssueNr?: string | null; expiryDesc?: string | null } }
      ).renewal;
      return renewal?.expiryDesc ? [{ s, desc: renewal.expiryDesc, issue: renewal.expiryIssueNr }] : [];
    });
    // The demo's renewable terms are worded (the check below has something to judge).
    expect(worded.length).toBeGreaterThan(0);
    for (const { s, desc, issue } of worded) {
      // An issue number such as "12/2026" (a daily's "286/2026"), named in the words ("ends with issue 12/2026").
      expect(issue, `${s.order_number}: ${desc}`).toMatch(/^\d{1,3}\/\d{4}$/);
      expect(desc.endsWith(` ${issue}`), `${s.order_number}: ${desc}`).toBe(true);
    }
  });
});
