import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Form from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import type { RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { groupSchema, mergeGroup, pick, studioGroups, studioUiSchema, type StudioGroup } from './groups';
import { issuesToErrorSchema, issueText, pointerSegments, type StudioIssue } from './fieldErrors';
import { studioFields, studioWidgets, type StudioFormContext } from './widgets';
import { GROUP_LABELS, studioLang, translate, type TextKey } from './texts';
import { insightsText } from './insightsTexts';
import { studioApi, type DiffLine } from './studioApi';

type Tenant = Record<string, unknown>;
type ThemePresets = Record<string, { colors: Record<string, string> }>;

const lang = studioLang(window.location.search);
const t = (key: TextKey, values?: Record<string, string | number>) => translate(lang, key, values);
const previewLang =
  new URLSearchParams(window.location.search).get('previewLang') ??
  new URLSearchParams(window.location.search).get('lang') ??
  '';
const DEBOUNCE_MS = 350;

function newDraftId(): string {
  return (
    crypto.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
  ).toLowerCase();
}

/** The theme colours in effect: the preset's, with the tenant's overrides (what the validator checks). */
function colorsOf(data: Tenant, presets: ThemePresets): Record<string, string> {
  const theme = (data.theme ?? {}) as { preset?: string; tokens?: { colors?: Record<string, string> } };
  return { ...(presets[theme.preset ?? '']?.colors ?? {}), ...(theme.tokens?.colors ?? {}) };
}

/**
 * The portal studio (docs/operators.md "Operators: the studio"): a tenant file as a form generated
 * from schemas/tenant.schema.json, the validator's problems at their fields while typing, the
 * portal itself live at 360 and 1280 px beside it, and a save that shows the diff and writes
 * minimal edits.
 */
export function StudioApp() {
  const [schema, setSchema] = useState<RJSFSchema>();
  const [presets, setPresets] = useState<ThemePresets>({});
  const [files, setFiles] = useState<Array<{ id: string; name?: string }>>([]);
  const [fileId, setFileId] = useState<string>();
  const [exists, setExists] = useState(true);
  const [data, setData] = useState<Tenant>();
  const [issues, setIssues] = useState<StudioIssue[]>([]);
  const [warnings, setWarnings] = useState<StudioIssue[]>([]);
  const [tab, setTab] = useState<StudioGroup['id']>('brand');
  const [draftId] = useState(newDraftId);
  const [version, setVersion] = useState(0);
  const [upToDate, setUpToDate] = useState(true);
  const [apiTenant, setApiTenant] = useState<string>();
  const [users, setUsers] = useState<Array<{ email: string; name?: string }>>([]);
  // A tenant that is no demo has nobody to sign in as: the bar says how its data comes in instead.
  const [demo, setDemo] = useState(true);
  const [user, setUser] = useState('');
  const [newId, setNewId] = useState('');
  const [review, setReview] = useState<{ diff: DiffLine[]; issues: StudioIssue[] }>();
  const [confirmed, setConfirmed] = useState(false);
  const [message, setMessage] = useState<string>();
  const frames = useRef<Array<HTMLIFrameElement | null>>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    void (async () => {
      const [loadedSchema, themes, tenants] = await Promise.all([
        studioApi.schema(),
        studioApi.themes(),
        studioApi.tenants(),
      ]);
      setSchema(loadedSchema);
      setPresets(themes);
      setFiles(tenants.files);
      const wanted = new URLSearchParams(window.location.search).get('tenant');
      const first =
        tenants.files.find((f) => f.id === wanted) ??
        tenants.files.find((f) => tenants.served.some((s) => s.id === f.id)) ??
        tenants.files[0];
      if (first) await open(first.id);
    })().catch((error: Error) => setMessage(error.message));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- loads the tenant list once, when the studio opens
  }, []);

  const reloadFrames = useCallback(() => {
    for (const frame of frames.current) {
      try {
        frame?.contentWindow?.location.reload();
      } catch {
        // A frame that has not loaded yet picks up the draft on its own.
      }
    }
  }, []);

  const pushDraft = useCallback(
    async (id: string, next: Tenant) => {
      const answer = await studioApi.putDraft(draftId, id, next);
      setIssues(answer.issues);
      setWarnings(answer.warnings);
      setUpToDate(answer.previewUpToDate);
      setApiTenant(answer.apiTenant);
      setVersion((before) => {
        if (before !== 0 && answer.version !== before) setTimeout(reloadFrames, 0);
        return answer.version;
      });
    },
    [draftId, reloadFrames],
  );

  async function open(id: string) {
    const file = await studioApi.tenant(id);
    setFileId(id);
    setExists(file.exists);
    setData(file.data);
    setIssues(file.issues);
    setWarnings(file.warnings);
    setReview(undefined);
    setMessage(undefined);
    await pushDraft(id, file.data);
  }

  useEffect(() => {
    if (!apiTenant) return;
    void studioApi.demoUsers(apiTenant).then((answer) => {
      setUsers(answer.users);
      setDemo(answer.demo);
    });
  }, [apiTenant]);

  function onTabChange(group: StudioGroup, event: IChangeEvent) {
    if (!data || !fileId) return;
    const next = mergeGroup(data, group.keys, (event.formData ?? {}) as Tenant);
    setData(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(
      () => void pushDraft(fileId, next).catch((error: Error) => setMessage(error.message)),
      DEBOUNCE_MS,
    );
  }

  async function signIn(email: string) {
    setUser(email);
    if (!apiTenant) return;
    const key = `portal.authState.${apiTenant}`;
    if (!email) sessionStorage.removeItem(key);
    else {
      const answer = await studioApi.signIn(apiTenant, email);
      sessionStorage.setItem(answer.storageKey, JSON.stringify(answer.session));
    }
    // From the portal's start page, where a session leads to the subscriber's screens.
    for (const frame of frames.current)
      if (frame) frame.src = `${frameSrc}${frameSrc.includes('?') ? '&' : '?'}session=${Date.now()}`;
  }

  async function startReview() {
    if (!data || !fileId) return;
    const answer = await studioApi.diff(fileId, data);
    setConfirmed(false);
    setReview({ diff: answer.diff, issues: answer.issues });
  }

  async function save() {
    if (!data || !fileId || !review) return;
    try {
      const answer = await studioApi.save(fileId, data, confirmed ? review.issues.length : 0);
      setReview(undefined);
      setExists(true);
      setIssues(answer.issues);
      setMessage(t('saved', { file: answer.file }));
      setFiles(await studioApi.tenants().then((tenants) => tenants.files));
    } catch (error) {
      setMessage((error as Error).message);
    }
  }

  const groups = useMemo(() => (schema ? studioGroups(schema) : []), [schema]);
  const uiSchema = useMemo(() => (schema ? studioUiSchema(schema, tab) : {}), [schema, tab]);
  const group = groups.find((g) => g.id === tab);
  const tabSchema = useMemo(
    () => (schema && group ? groupSchema(schema, group) : undefined),
    [schema, group],
  );
  const extraErrors = useMemo(
    () => issuesToErrorSchema(issues, group ? new Set(group.keys) : undefined),
    [issues, group],
  );
  const formContext: StudioFormContext = useMemo(
    () => ({ colors: data ? colorsOf(data, presets) : {} }),
    [data, presets],
  );
  const countIn = (g: StudioGroup) =>
    issues.filter((issue) => g.keys.includes(pointerSegments(issue.pointer)[0] ?? '')).length;
  const frameSrc = `/studio/preview/${draftId}/${previewLang ? `?lang=${encodeURIComponent(previewLang)}` : ''}`;

  if (!schema || !data || !fileId || !group || !tabSchema) {
    return (
      <main className="studio-loading">
        <h1>{t('title')}</h1>
        <p role="status">{message ?? t('loading')}</p>
      </main>
    );
  }

  return (
    <div className="studio">
      <header className="studio-bar">
        <h1>{t('title')}</h1>
        <label>
          {t('tenant')}{' '}
          <select value={fileId} onChange={(event) => void open(event.target.value)}>
            {files.map((file) => (
              <option key={file.id} value={file.id}>
                {file.id}.json{file.name ? ` — ${file.name}` : ''}
              </option>
            ))}
            {!exists && (
              <option value={fileId}>
                {fileId}.json ({t('newFile')})
              </option>
            )}
          </select>
        </label>
        <form
          className="studio-new"
          onSubmit={(event) => {
            event.preventDefault();
            if (newId) void open(newId).catch((error: Error) => setMessage(error.message));
          }}
        >
          <label>
            {t('newTenant')}{' '}
            <input
              value={newId}
              onChange={(event) => setNewId(event.target.value.trim())}
              placeholder="city-herald"
            />
          </label>
          <button type="submit">{t('start')}</button>
        </form>
        <a
          className="studio-insights-link"
          href={`/studio/?${new URLSearchParams({ view: 'insights', lang, ...(fileId ? { tenant: fileId } : {}) }).toString()}`}
        >
          {insightsText(lang, 'open')}
        </a>
        <button type="button" className="studio-primary" onClick={() => void startReview()}>
          {t('review')}
        </button>
      </header>
      {message && (
        <p className="studio-message" role="status">
          {message}
        </p>
      )}
      <main className="studio-main">
        <section className="studio-form" aria-labelledby="studio-settings">
          <h2 id="studio-settings" className="visually-hidden">
            {t('groups')}
          </h2>
          <div
            className={issues.length ? 'studio-summary has-problems' : 'studio-summary'}
            role="status"
            data-testid="studio-summary"
          >
            {issues.length ? t('problems', { n: issues.length }) : t('noProblems')}
            {warnings.length > 0 && ` · ${t('warnings', { n: warnings.length })}`}
          </div>
          {issues.length > 0 && (
            <ul className="studio-issues">
              {issues.map((issue, index) => (
                <li key={index}>
                  <button
                    type="button"
                    className="link"
                    onClick={() =>
                      setTab(
                        groups.find((g) => g.keys.includes(pointerSegments(issue.pointer)[0] ?? ''))?.id ??
                          tab,
                      )
                    }
                  >
                    <code>{issue.pointer || '/'}</code>
                  </button>{' '}
                  {issueText(issue)}
                </li>
              ))}
            </ul>
          )}
          <div role="tablist" className="studio-tabs" aria-label={t('groups')}>
            {groups.map((g) => (
              <button
                key={g.id}
                type="button"
                role="tab"
                id={`tab-${g.id}`}
                aria-selected={g.id === tab}
                aria-controls="studio-tabpanel"
                onClick={() => setTab(g.id)}
              >
                {GROUP_LABELS[lang][g.id]}
                {countIn(g) > 0 && <span className="count"> ({countIn(g)})</span>}
              </button>
            ))}
          </div>
          <div role="tabpanel" id="studio-tabpanel" aria-labelledby={`tab-${tab}`}>
            <Form
              key={`${fileId}:${tab}`}
              schema={tabSchema}
              uiSchema={uiSchema}
              formData={pick(data, group.keys)}
              validator={validator}
              widgets={studioWidgets}
              fields={studioFields}
              formContext={formContext}
              extraErrors={extraErrors}
              showErrorList={false}
              noHtml5Validate
              experimental_defaultFormStateBehavior={{
                emptyObjectFields: 'skipDefaults',
                arrayMinItems: { populate: 'never' },
              }}
              onChange={(event) => onTabChange(group, event)}
            />
          </div>
        </section>
        <section className="studio-preview" aria-labelledby="studio-preview-title">
          <div className="studio-preview-bar">
            <h2 id="studio-preview-title">{t('preview')}</h2>
            {demo && (
              <label>
                {t('signedInAs')}{' '}
                <select value={user} onChange={(event) => void signIn(event.target.value)}>
                  <option value="">{t('signedOut')}</option>
                  {users.map((u) => (
                    <option key={u.email} value={u.email}>
                      {u.email}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </div>
          {!demo && apiTenant && (
            <p className="studio-no-demo" role="note" data-testid="studio-no-demo">
              {t('noDemoData', { tenant: apiTenant })}
            </p>
          )}
          {!upToDate && <p className="studio-stale">{t('previewStale')}</p>}
          {version > 0 && (
            <div className="studio-frames">
              <figure className="frame-phone">
                <figcaption>{t('phone')}</figcaption>
                <iframe
                  ref={(el) => void (frames.current[0] = el)}
                  title={`${t('preview')}: ${t('phone')}`}
                  src={frameSrc}
                  width={360}
                  height={640}
                />
              </figure>
              <figure className="frame-desktop">
                <figcaption>{t('desktop')}</figcaption>
                <div className="scaler">
                  <iframe
                    ref={(el) => void (frames.current[1] = el)}
                    title={`${t('preview')}: ${t('desktop')}`}
                    src={frameSrc}
                    width={1280}
                    height={800}
                  />
                </div>
              </figure>
            </div>
          )}
        </section>
      </main>
      {review && (
        <div className="studio-review" role="dialog" aria-modal="true" aria-labelledby="studio-review-title">
          <h2 id="studio-review-title">{t('diff', { file: `tenants/${fileId}.json` })}</h2>
          {review.diff.length === 0 ? (
            <p>{t('noChanges')}</p>
          ) : (
            <pre className="studio-diff" data-testid="studio-diff">
              {review.diff.map((line, index) => (
                <div key={index} className={line.kind === '+' ? 'add' : line.kind === '-' ? 'del' : 'same'}>
                  {line.kind} {line.text}
                </div>
              ))}
            </pre>
          )}
          {review.issues.length > 0 && (
            <label className="studio-confirm">
              <input
                type="checkbox"
                checked={confirmed}
                onChange={(event) => setConfirmed(event.target.checked)}
              />{' '}
              {t('confirm', { n: review.issues.length })}
            </label>
          )}
          <div className="studio-actions">
            <button
              type="button"
              className="studio-primary"
              disabled={review.diff.length === 0 || (review.issues.length > 0 && !confirmed)}
              onClick={() => void save()}
            >
              {t('save')}
            </button>
            <button type="button" onClick={() => setReview(undefined)}>
              {t('cancel')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
