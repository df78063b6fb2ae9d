/**
 * SQL for the issue calendar (portal-core.md §2 "Issue calendar", §7 calendar calls): the tenant's
 * publications with cover and current issue, and the issues on sale in a date window. Tenant-scoped.
 */
import type { Queryable } from '../db/database';
import { localizedRow, type Translations } from './localizedDetails';

import type { CalendarIssue, CalendarPublication } from '../../schemas/generated/public-pages';

export async function listCalendarPublications(
  db: Queryable,
  tenantId: string,
): Promise<CalendarPublication[]> {
  return db.query<CalendarPublication>(
    `select publication, client_id as "clientId", description, cover_image_url as "coverImageUrl", current_issue as "currentIssue"
       from publications where tenant_id = $1 order by description, publication`,
    [tenantId],
  );
}

export async function findCalendarPublication(
  db: Queryable,
  tenantId: string,
  clientId: string,
  publication: string,
): Promise<CalendarPublication | undefined> {
  const rows = await db.query<CalendarPublication>(
    `select publication, client_id as "clientId", description, cover_image_url as "coverImageUrl", current_issue as "currentIssue"
       from publications where tenant_id = $1 and client_id = $2 and publication = $3`,
    [tenantId, clientId, publication],
  );
  return rows[0];
}

/**
 * Issues of a publication whose first sale day lies in [dateFrom, dateTo], earliest first; their
 * descriptions (the order system's names of the issues) in `opts.locale` when given in it.
 */
export async function listIssuesOnSale(
  db: Queryable,
  tenantId: string,
  publication: string,
  window: { dateFrom: string; dateTo: string },
  opts: { locale?: string } = {},
): Promise<CalendarIssue[]> {
  const rows = await db.query<CalendarIssue & { translations: Translations<CalendarIssue> | null }>(
    `select issue, issue_number as "issueNumber", description,
            to_char(date_of_first_sale, 'YYYY-MM-DD') as "dateOfFirstSale",
            to_char(date_of_first_shipping, 'YYYY-MM-DD') as "dateOfFirstShipping",
            publication, translations
       from issues
      where tenant_id = $1 and publication = $2
        and date_of_first_sale between $3::date and $4::date
      order by date_of_first_sale, issue`,
    [tenantId, publication, window.dateFrom, window.dateTo],
  );
  return rows.map((row) => localizedRow(row, opts.locale));
}
