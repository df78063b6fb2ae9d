/**
 * The client error reports of a page (engine/domain/clientErrors.ts): a sample of the errors (the
 * spec's rate of 0.25), each distinct error once per page load and at most MAX_REPORTS_PER_PAGE,
 * scrubbed, then sent (engine/core/clientErrorSender.ts). Loaded with a page's first error
 * (engine/app/main.tsx). Reporting never throws: an error it met itself would be reported again.
 */
import { clientErrorReport, ERROR_REPORT_SAMPLE_RATE, type ClientErrorKind } from '../domain/clientErrors';
import { sendClientErrorReport } from './clientErrorSender';

const MAX_REPORTS_PER_PAGE = 10;

export type ReportError = (error: unknown, kind: ClientErrorKind) => void;

export function createErrorReporter(options: {
  basePath: string;
  /** The screen's path under the portal base (the report carries it with its numbers replaced). */
  pathname: () => string;
  random?: () => number;
  send?: typeof sendClientErrorReport;
}): ReportError {
  const random = options.random ?? Math.random;
  const send = options.send ?? sendClientErrorReport;
  const seen = new Set<string>();
  return (error, kind) => {
    try {
      const report = clientErrorReport(error, kind, options.pathname());
      const key = `${report.kind} ${report.name} ${report.message}`;
      if (seen.has(key) || seen.size >= MAX_REPORTS_PER_PAGE) return;
      seen.add(key);
      if (random() >= ERROR_REPORT_SAMPLE_RATE) return;
      void send(options.basePath, report);
    } catch {
      // Nothing to report with: dropped.
    }
  };
}
