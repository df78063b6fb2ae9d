/**
 * The studio editor's parts (docs/operators.md "Operators: the studio"): the bar with the tenant
 * file and the review button, the settings (the problems, the group tabs and the group's form), the
 * live preview frames, and the review dialog with the diff before a save.
 */
import { useEffect, useRef, useState } from 'react';
import Form from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import type { ErrorSchema, RJSFSchema, UiSchema, ValidatorType } from '@rjsf/utils';
import { pick, type StudioGroup } from './groups';
import { issueText, pointerSegments, type StudioIssue } from './fieldErrors';
import { studioFields, studioWidgets, type StudioFormContext } from './widgets';
import { GROUP_LABELS } from './texts';
import { insightsText } from './insightsTexts';
import { editorText as t, lang } from './pageLang';
import type { Review, Studio, Tenant } from './useStudio';

/** The bar: the tenant file open, a new one, the way to the insights and the review. */
export function StudioBar({ studio, fileId }: { studio: Studio; fileId: string }) {
  const { files, exists, open, setMessage } = studio;
  return (
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
      <NewTenantForm open={open} setMessage={setMessage} />
      <a
        className="studio-insights-link"
        href={`/studio/?${new URLSearchParams({ view: 'insights', lang, ...(fileId ? { tenant: fileId } : {}) }).toString()}`}
      >
        {insightsText(lang, 'open')}
      </a>
      <button type="button" className="studio-primary" onClick={() => void studio.reviewing.startReview()}>
        {t('review')}
      </button>
    </header>
  );
}

function NewTenantForm({
  open,
  setMessage,
}: {
  open: (id: string) => Promise<void>;
  setMessage: (message: string) => void;
}) {
  const [newId, setNewId] = useState('');
  return (
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
  );
}

interface TabForm {
  fileId: string;
  group: StudioGroup;
  tabSchema: RJSFSchema;
  /** The tab's form checks (formValidators.ts tabValidator). */
  validator: ValidatorType;
  uiSchema: UiSchema;
  data: Tenant;
  formContext: StudioFormContext;
  extraErrors: ErrorSchema;
}

/** The settings: the problems' summary and list, the group tabs and the open group's form. */
export function SettingsSection(props: {
  issues: StudioIssue[];
  warnings: StudioIssue[];
  groups: StudioGroup[];
  tab: StudioGroup['id'];
  onTab: (tab: StudioGroup['id']) => void;
  onIssue: (pointer: string) => void;
  form: TabForm;
  onChange: (group: StudioGroup, event: IChangeEvent) => void;
}) {
  const { issues, warnings, groups, tab, form } = props;
  const countIn = (g: StudioGroup) =>
    issues.filter((issue) => g.keys.includes(pointerSegments(issue.pointer)[0] ?? '')).length;
  return (
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
      {issues.length > 0 && <IssueList issues={issues} onIssue={props.onIssue} />}
      {/* A warning saves and serves (a missing privacy section, a text missing in a language):
          said in words, as `portal validate` prints it, or the count would name nothing. */}
      {warnings.length > 0 && (
        <IssueList issues={warnings} onIssue={props.onIssue} label={t('warningsList')} warning />
      )}
      <div role="tablist" className="studio-tabs" aria-label={t('groups')}>
        {groups.map((g) => (
          <button
            key={g.id}
            type="button"
            role="tab"
            id={`tab-${g.id}`}
            tabIndex={g.id === tab ? 0 : -1}
            onKeyDown={(event) => {
              // The arrow keys, Home and End move between the tabs, one tab stop for the list
              // (WAI-ARIA APG "Tabs", activation follows focus).
              const at = groups.findIndex((other) => other.id === g.id);
              const next = {
                ArrowRight: (at + 1) % groups.length,
                ArrowLeft: (at - 1 + groups.length) % groups.length,
                Home: 0,
                End: groups.length - 1,
              }[event.key];
              if (next === undefined) return;
              event.preventDefault();
              props.onTab(groups[next].id);
              document.getElementById(`tab-${groups[next].id}`)?.focus();
            }}
            aria-selected={g.id === tab}
            aria-controls="studio-tabpanel"
            onClick={() => props.onTab(g.id)}
          >
            {GROUP_LABELS[lang][g.id]}
            {countIn(g) > 0 && <span className="count"> ({countIn(g)})</span>}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="studio-tabpanel" aria-labelledby={`tab-${tab}`}>
        <Form
          key={`${form.fileId}:${tab}`}
          schema={form.tabSchema}
          uiSchema={form.uiSchema}
          formData={pick(form.data, form.group.keys)}
          validator={form.validator}
          widgets={studioWidgets}
          fields={studioFields}
          formContext={form.formContext}
          extraErrors={form.extraErrors}
          showErrorList={false}
          noHtml5Validate
          experimental_defaultFormStateBehavior={{
            emptyObjectFields: 'skipDefaults',
            arrayMinItems: { populate: 'never' },
          }}
          onChange={(event) => props.onChange(form.group, event)}
        />
      </div>
    </section>
  );
}

/** The validator's problems (or warnings), each a button to the tab of its field. */
function IssueList({
  issues,
  onIssue,
  label,
  warning = false,
}: {
  issues: StudioIssue[];
  onIssue: (pointer: string) => void;
  label?: string;
  warning?: boolean;
}) {
  return (
    <ul className={warning ? 'studio-issues studio-warnings' : 'studio-issues'} aria-label={label}>
      {issues.map((issue, index) => (
        <li key={index}>
          <button type="button" className="link" onClick={() => onIssue(issue.pointer)}>
            <code>{issue.pointer || '/'}</code>
          </button>{' '}
          {issueText(issue)}
        </li>
      ))}
    </ul>
  );
}

/** The portal live at 360 and 1280 px, signed in as a demo user where the tenant is a demo. */
export function PreviewSection({ draft, preview }: Pick<Studio, 'draft' | 'preview'>) {
  const { apiTenant, upToDate, version, frames, frameSrc } = draft;
  return (
    <section className="studio-preview" aria-labelledby="studio-preview-title">
      <div className="studio-preview-bar">
        <h2 id="studio-preview-title">{t('preview')}</h2>
        {preview.demo && (
          <label>
            {t('signedInAs')}{' '}
            <select value={preview.user} onChange={(event) => void preview.signIn(event.target.value)}>
              <option value="">{t('signedOut')}</option>
              {preview.users.map((u) => (
                <option key={u.email} value={u.email}>
                  {u.email}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {!preview.demo && apiTenant && (
        <p className="studio-no-demo" role="note" data-testid="studio-no-demo">
          {t('noDemoData', { tenant: apiTenant, command: preview.command })}
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
  );
}

/** The diff of the file before a save; problems saved with it are confirmed first. */
export function ReviewDialog({
  fileId,
  reviewing,
  review,
}: {
  fileId: string;
  reviewing: Studio['reviewing'];
  review: Review;
}) {
  const { confirmed, setConfirmed } = reviewing;
  const dialog = useRef<HTMLDivElement>(null);
  // A modal dialog takes the focus when it opens, keeps Tab inside and gives the focus back to what
  // opened it when it closes (WAI-ARIA APG "Dialog (Modal)"); Escape closes it like its close button.
  // Once, when it opens: the close function is made anew on every render of the studio.
  const close = useRef(reviewing.closeReview);
  close.current = reviewing.closeReview;
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close.current();
      // Tab stays inside the dialog: from its last control to its first and back.
      if (event.key !== 'Tab' || !dialog.current) return;
      const controls = [
        ...dialog.current.querySelectorAll<HTMLElement>('button:not([disabled]), input:not([disabled])'),
      ];
      if (controls.length === 0) return;
      const first = controls[0];
      const last = controls[controls.length - 1];
      const at = document.activeElement;
      if (event.shiftKey && (at === first || at === dialog.current)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && at === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      opener?.focus();
    };
  }, []);
  return (
    <div
      ref={dialog}
      className="studio-review"
      role="dialog"
      aria-modal="true"
      aria-labelledby="studio-review-title"
      tabIndex={-1}
    >
      <h2 id="studio-review-title">{t('diff', { file: review.file ?? `tenants/${fileId}.json` })}</h2>
      {review.diff.length === 0 ? (
        <p>{t('noChanges')}</p>
      ) : (
        <pre className="studio-diff" data-testid="studio-diff">
          {review.diff.map((line, index) => (
            <div
              key={index}
              className={
                line.kind === '+' ? 'add' : line.kind === '-' ? 'del' : line.kind === '@' ? 'hunk' : 'same'
              }
            >
              {line.kind === '@' ? line.text : `${line.kind} ${line.text}`}
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
          onClick={() => void reviewing.save()}
        >
          {t('save')}
        </button>
        <button type="button" onClick={reviewing.closeReview}>
          {t('cancel')}
        </button>
      </div>
    </div>
  );
}
