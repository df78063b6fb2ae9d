/**
 * GET /api/issue-calendar/publications and the issue lists (portal-core.md §3 "Publication",
 * "Issue"): the shapes are generated from schemas/api/public-pages.schema.json, as the server's.
 */
export type { CalendarIssue, CalendarPublication } from '../../../schemas/generated/public-pages';
