/**
 * Delivered issues of a subscription: the latest issues between its start and today (or its end).
 * Made by subscriptions.ts with each subscription; this module owns the table.
 */
import type { DownloadStatus } from '../../store/rows';
import type { CataloguePublication } from '../catalogue';
import type { SeedContext, SeedModule } from '../context';
import { fromDay } from '../dates';
import { issuesOf } from './publications';

export interface DeliveredIssueSeedRow {
  subscription_id: string;
  issue: string;
  issue_number: string;
  description: string;
  date_of_first_sale: string;
  download_status: DownloadStatus;
  translations?: Partial<Record<string, { description: string }>>;
}

export interface DeliveredIssuesSpec {
  subscriptionId: string;
  pub: CataloguePublication;
  /** Whether the issues can be downloaded (e-paper, combo). */
  downloadable: boolean;
  count: number;
  validFrom: number;
  lastDay: number;
}

export function addDeliveredIssues(ctx: SeedContext, spec: DeliveredIssuesSpec): void {
  if (spec.count <= 0) return;
  const window = issuesOf(ctx, spec.pub).filter(
    (i) => i.date_of_first_sale >= fromDay(spec.validFrom) && i.date_of_first_sale <= fromDay(spec.lastDay),
  );
  const latest = window.slice(-spec.count).reverse();
  latest.forEach((issue, index) => {
    let status: DownloadStatus = 'not_supported';
    if (spec.downloadable) {
      // The oldest downloads have left the download window; one file is missing, one unknown.
      status =
        index >= latest.length - 3
          ? 'expired'
          : index === 2
            ? 'not_found'
            : index === 4
              ? 'unknown'
              : 'found';
    }
    ctx.data.deliveredIssues.push({
      subscription_id: spec.subscriptionId,
      issue: issue.issue,
      issue_number: issue.issue_number,
      description: issue.description,
      date_of_first_sale: issue.date_of_first_sale,
      download_status: status,
      translations: issue.translations,
    });
  });
}

export const deliveredIssues: SeedModule = {
  name: 'deliveredIssues',
};
