/** GET /api/issue-calendar/publications (portal-core.md §3 "Publication" in the calendar). */
export interface CalendarPublication {
  publication: string;
  clientId: string;
  description: string;
  coverImageUrl: string | null;
  currentIssue: string | null;
}

/** An issue on sale (§3 "Issue"); upcoming issues of a subscription are tagged with it. */
export interface CalendarIssue {
  issue: string;
  issueNumber: string | null;
  description: string | null;
  dateOfFirstSale: string;
  publication: string;
  subscriptionId?: string;
}
