/**
 * A subscription's delivered issues as the screens read them: what the delivery record leaves out
 * (its issue number, description, date of first sale) comes from the publication's issue of the
 * same key, which the order system sends as an `issues` record. An order system may name a
 * delivered issue by its keys alone (docs/going-live.md "2. Upserts"); a compensation copy
 * (`C-…`) has no such issue and keeps its own.
 */
export const DELIVERED_ISSUES_FROM = `delivered_issues d
  left join subscriptions ds on ds.tenant_id = d.tenant_id and ds.id = d.subscription_id
  left join issues di on di.tenant_id = d.tenant_id and di.publication = ds.publication and di.issue = d.issue`;

/** The columns of DELIVERED_ISSUES_FROM, each the delivery's own or else the issue's. */
export const DELIVERED_ISSUE_NUMBER = 'coalesce(d.issue_number, di.issue_number)';
export const DELIVERED_DESCRIPTION = 'coalesce(d.description, di.description)';
export const DELIVERED_DATE_OF_FIRST_SALE = 'coalesce(d.date_of_first_sale, di.date_of_first_sale)';
/** The other languages' words of the description shown: the issue's when the description is. */
export const DELIVERED_TRANSLATIONS =
  'case when d.description is null then di.translations else d.translations end';
