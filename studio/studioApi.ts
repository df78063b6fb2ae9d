import type { RJSFSchema } from '@rjsf/utils';
import type { StudioIssue } from './fieldErrors';
import type { RetentionInsights } from '../schemas/generated/retention-insights';

export interface DiffLine {
  kind: ' ' | '-' | '+' | '@';
  text: string;
}

type Tenant = Record<string, unknown>;
interface Checked {
  issues: StudioIssue[];
  warnings: StudioIssue[];
}

/** The studio's calls to `/studio/api` (server/studio/studioRoutes.ts); errors carry the server's message. */
async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/studio/api${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => undefined)) as
    { error?: { message?: string } } | undefined;
  if (!response.ok) throw new Error(answer?.error?.message ?? `${response.status} ${response.statusText}`);
  return answer as T;
}

export const studioApi = {
  schema: () => call<RJSFSchema>('GET', '/schema'),
  themes: () => call<Record<string, { colors: Record<string, string> }>>('GET', '/themes'),
  tenants: () =>
    call<{ files: Array<{ id: string; name?: string }>; served: Array<{ id: string; name: string }> }>(
      'GET',
      '/tenants',
    ),
  tenant: (fileId: string) =>
    call<Checked & { fileId: string; exists: boolean; data: Tenant }>(
      'GET',
      `/tenants/${encodeURIComponent(fileId)}`,
    ),
  putDraft: (draftId: string, fileId: string, data: Tenant) =>
    call<Checked & { draftId: string; version: number; previewUpToDate: boolean; apiTenant: string }>(
      'PUT',
      `/drafts/${draftId}`,
      { fileId, data },
    ),
  diff: (fileId: string, data: Tenant) =>
    call<Checked & { exists: boolean; diff: DiffLine[]; file: string }>('POST', '/diff', { fileId, data }),
  save: (fileId: string, data: Tenant, confirmedProblems: number) =>
    call<Checked & { saved: boolean; file: string; command: string }>('POST', '/save', {
      fileId,
      data,
      confirmedProblems,
    }),
  demoUsers: (tenant: string) =>
    call<{
      tenant: string;
      demo: boolean;
      hint?: string;
      command?: string;
      users: Array<{ email: string; name?: string }>;
    }>('GET', `/demo-users?tenant=${encodeURIComponent(tenant)}`),
  /** Retention insights of a tenant and period. */
  insights: (tenant: string, from: string, to: string) =>
    call<RetentionInsights>('GET', `/insights?${new URLSearchParams({ tenant, from, to }).toString()}`),
  signIn: (tenant: string, email: string) =>
    call<{ storageKey: string; session: unknown }>('POST', '/sign-in', { tenant, email }),
};
