/** Publications and their issue calendars (no generator draws: the calendar is a function of the title and day). */
import type { CataloguePublication } from '../catalogue';
import { issueCalendar } from '../catalogue';
import { type SeedContext, type SeedModule, translationsOf } from '../context';
import { dayOf, fromDay } from '../dates';
import { issueSpanInsideDates } from '../../../engine/domain/holidayService';

export interface PublicationSeedRow {
  publication: string;
  client_id: string;
  description: string;
  cover_image_url: string;
  current_issue: string | null;
}
export interface IssueSeedRow {
  publication: string;
  issue: string;
  issue_number: string;
  description: string;
  date_of_first_sale: string;
  date_of_first_shipping: string;
  /** The description in the tenant's other languages (server/store/localizedDetails.ts). */
  translations?: Partial<Record<string, { description: string }>>;
}

/** The issues of a publication, oldest first. */
export function issuesOf(ctx: SeedContext, pub: CataloguePublication): IssueSeedRow[] {
  return ctx.data.issues.filter((issue) => issue.publication === pub.publication);
}

/**
 * The first and last issue on sale from `from` to `to` ('YYYY-MM-DD', both included): the issues a
 * holiday service of those dates concerns, by the screen's and the server's rule.
 */
export function issueSpanBetween(
  ctx: SeedContext,
  pub: CataloguePublication,
  from: string,
  to: string,
): { issueNumberFrom: string | null; issueNumberTo: string | null; firstShipping: string | null } {
  const issues = issuesOf(ctx, pub).map((issue) => ({
    issue: issue.issue,
    issueNumber: issue.issue_number,
    dateOfFirstSale: issue.date_of_first_sale,
  }));
  const span = issueSpanInsideDates(issues, { dateFrom: from, dateTo: to });
  // The day the span's first issue ships: what decides whether a redirect can still be cancelled
  // (account-flows.md §4 "redirect while its first issue has not shipped").
  const first = issuesOf(ctx, pub).find((issue) => issue.issue_number === span.issueNumberFrom);
  return { ...span, firstShipping: first?.date_of_first_shipping ?? null };
}

/**
 * The last issue on sale on or before `day`, with that day: a term that ends there ends with this
 * issue (the lifecycle's end and last issue agree, engine/domain/lifecycle.ts).
 */
export function lastIssueBy(
  ctx: SeedContext,
  pub: CataloguePublication,
  day: number,
): { issueNumber: string; day: number } | null {
  const issue = [...issuesOf(ctx, pub)]
    .reverse()
    .find((candidate) => candidate.date_of_first_sale <= fromDay(day));
  return issue
    ? { issueNumber: issue.issue_number, day: dayOf(new Date(`${issue.date_of_first_sale}T00:00:00Z`)) }
    : null;
}

/** The first issue on sale after `day`, with its day. */
export function firstIssueAfter(
  ctx: SeedContext,
  pub: CataloguePublication,
  day: number,
): { issueNumber: string; day: number } | null {
  const issue = issuesOf(ctx, pub).find((candidate) => candidate.date_of_first_sale > fromDay(day));
  return issue
    ? { issueNumber: issue.issue_number, day: dayOf(new Date(`${issue.date_of_first_sale}T00:00:00Z`)) }
    : null;
}

/** Number of the first issue on sale after `day`. */
export function issueNumberAfter(ctx: SeedContext, pub: CataloguePublication, day: number): string | null {
  return issuesOf(ctx, pub).find((issue) => issue.date_of_first_sale > fromDay(day))?.issue_number ?? null;
}

export const publications: SeedModule = {
  name: 'publications',
  build(ctx) {
    for (const pub of ctx.catalogue.all) {
      const issues = issueCalendar(pub, ctx.today, ctx.L.texts.issueDescription);
      const current = [...issues].reverse().find((i) => i.dateOfFirstSale <= fromDay(ctx.today));
      ctx.data.publications.push({
        publication: pub.publication,
        client_id: pub.clientId,
        description: pub.description,
        cover_image_url: ctx.catalogue.cover(pub),
        current_issue: current?.issueNumber ?? null,
      });
      for (const issue of issues) {
        ctx.data.issues.push({
          publication: pub.publication,
          issue: issue.issue,
          issue_number: issue.issueNumber,
          description: issue.description,
          date_of_first_sale: issue.dateOfFirstSale,
          date_of_first_shipping: issue.dateOfFirstShipping,
          translations: translationsOf(ctx, (O) => ({
            description: O.texts.issueDescription(pub.description, issue.issueNumber),
          })),
        });
      }
    }
  },
};
