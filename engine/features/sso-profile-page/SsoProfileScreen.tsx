import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { useSearchParams } from 'react-router';
import { useSetAtom } from 'jotai';
import type { SsoProfile } from '../../../schemas/generated/sso-profile';
import { useResource } from '../../account/resource';
import { ResourceView } from '../../account/ResourceView';
import { authStateAtom } from '../../core/authState';
import { notifyHostFrame } from '../../core/hostFrame';
import { usePortal } from '../../core/PortalContext';
import {
  deleteConfirmationMatches,
  passwordFormProblems,
  SSO_EMAIL_MAX_LENGTH,
  ssoEmailProblem,
} from '../../domain/ssoProfile';
import { PASSWORD_MAX_LENGTH } from '../../domain/fieldRules';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { InputField } from '../../ui/fields';
import { failureTextKeys, fieldTextKey, generalFailureText } from './ssoProfileOutcomes';
import { ssoProfileApi } from './ssoProfileApi';
import { DataExportSection } from '../../account/DataExportSection';
import { DATA_EXPORT_LINK_PARAM, offersDataExport } from '../../domain/dataExport';
import './ssoProfile.css';
import { useFocusFirstError } from '../../ui/focusFirstError';

/**
 * /sso-profile (account-flows.md §2 "SSO profile", §4 "SSO delete", §5, §8): the sign-in address,
 * the password form (where the tenant offers password sign-in), the e-mail form and the delete
 * section (each where the tenant's `ssoProfilePage` switch allows it). A non-empty server reply is
 * shown as the message. The link mailed to a new address opens this page with `emailToken`, which
 * confirms the change for the signed-in account. "Download my data" sits above the delete section
 * (engine/domain/dataExport.ts: this page is the export's screen wherever it is on): the link mailed
 * for it opens this page with `dataExport`.
 */
export default function SsoProfileScreen() {
  const { t } = useTranslation();
  const { api, config } = usePortal();
  const profile = useResource<SsoProfile>(`sso-profile`, (client) => ssoProfileApi(client).profile());
  const [search, setSearch] = useSearchParams();
  const [notice, setNotice] = useState<{ variant: 'success' | 'error'; text: string } | null>(null);
  const confirming = useRef(false);
  const setAuth = useSetAtom(authStateAtom);

  // The link of a data export: its token waits for the download button of DataExportSection.
  const dataExportToken = search.get(DATA_EXPORT_LINK_PARAM);

  // The confirmation link (server/sso-profile-page): spend its token once, then drop it from the address bar.
  const emailToken = search.get('emailToken');
  useEffect(() => {
    if (!emailToken || confirming.current) return;
    confirming.current = true;
    ssoProfileApi(api)
      .confirmEmail(emailToken)
      .then(
        (answer) => {
          setNotice({ variant: 'success', text: answer.message });
          profile.reload();
          // The header's account menu and this tab's session name the new address at once.
          setAuth((auth) => (auth.user ? { ...auth, user: { ...auth.user, email: answer.email } } : auth));
        },
        () => setNotice({ variant: 'error', text: t('sso-profile-page.linkInvalid') }),
      )
      .finally(() => {
        const rest = new URLSearchParams(search);
        rest.delete('emailToken');
        setSearch(rest, { replace: true });
      });
  }, [api, emailToken, profile, search, setSearch, setAuth, t]);

  return (
    <section className="sso-profile" aria-labelledby="sso-profile-title">
      <h1 id="sso-profile-title">{t('sso-profile-page.heading')}</h1>
      {notice && (
        <Alert variant={notice.variant} onClose={() => setNotice(null)} closeLabel={t('shell.close')}>
          <p>{notice.text}</p>
        </Alert>
      )}
      <ResourceView resource={profile} errorKey="sso-profile-page.loadError">
        {(data) => (
          <>
            <div className="card sso-profile-current">
              <h2>{t('sso-profile-page.email.currentHeading')}</h2>
              <p className="sso-email" data-testid="sso-current-email">
                {data.email}
              </p>
              {data.pendingEmail && (
                <p className="sso-pending">
                  {t('sso-profile-page.email.pending', { email: data.pendingEmail })}
                </p>
              )}
            </div>
            {/* A change's answer patches the profile in place: a reload would unmount the section and its message. */}
            {data.passwordLogin && (
              <PasswordSection
                hasPassword={data.hasPassword}
                onDone={() => profile.replace({ ...data, hasPassword: true })}
              />
            )}
            {data.editEmail && (
              <EmailSection
                current={data.email}
                onDone={(pendingEmail) => profile.replace({ ...data, pendingEmail })}
              />
            )}
            {offersDataExport(config.tenant) && (
              <DataExportSection
                token={dataExportToken}
                onTokenDone={() => {
                  const rest = new URLSearchParams(search);
                  rest.delete(DATA_EXPORT_LINK_PARAM);
                  setSearch(rest, { replace: true });
                }}
              />
            )}
            {data.deleteEmail && <DeleteSection email={data.email} />}
          </>
        )}
      </ResourceView>
    </section>
  );
}

/** The message of a reply (§7 "shown as a message when non-empty"). */
function ReplyMessage({
  text,
  variant,
  onClose,
}: {
  text: string | null;
  variant: 'success' | 'error';
  onClose: () => void;
}) {
  const { t } = useTranslation();
  if (!text) return null;
  return (
    <Alert variant={variant} onClose={onClose} closeLabel={t('shell.close')}>
      <p>{text}</p>
    </Alert>
  );
}

function PasswordSection({ hasPassword, onDone }: { hasPassword: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [reply, setReply] = useState<{ text: string; variant: 'success' | 'error' } | null>(null);
  const [sending, setSending] = useState(false);
  // A refused submit (the form's own check or the server's, a wrong current password) focuses the
  // first field it marks, where its message is said.
  const { ref: formRef, refused } = useFocusFirstError();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setReply(null);
    // Every problem at once, each at its field; a too-long password is said, never cut.
    const problems = passwordFormProblems(
      { currentPassword: current, newPassword: next, repeatPassword: repeat },
      hasPassword,
    );
    const found = Object.fromEntries(
      Object.entries(problems).map(([field, problem]) => [field, fieldTextKey(field, problem)]),
    );
    if (Object.keys(found).length > 0) {
      setErrors(found);
      refused();
      return;
    }
    setErrors({});
    setSending(true);
    try {
      const answer = await ssoProfileApi(api).updatePassword(
        hasPassword ? { currentPassword: current, newPassword: next } : { newPassword: next },
      );
      setReply(answer.message ? { text: answer.message, variant: 'success' } : null);
      setCurrent('');
      setNext('');
      setRepeat('');
      onDone();
    } catch (error) {
      const keys = failureTextKeys(error);
      if (keys.general) setReply({ text: generalFailureText(error, t), variant: 'error' });
      setErrors(keys);
      refused();
    } finally {
      setSending(false);
    }
  }

  return (
    <form
      ref={formRef}
      className="card sso-profile-section"
      onSubmit={submit}
      noValidate
      aria-labelledby="sso-password-title"
    >
      <h2 id="sso-password-title">
        {t(hasPassword ? 'sso-profile-page.password.heading' : 'sso-profile-page.password.headingNew')}
      </h2>
      <ReplyMessage
        text={reply?.text ?? null}
        variant={reply?.variant ?? 'success'}
        onClose={() => setReply(null)}
      />
      {hasPassword && (
        <InputField
          label={t('sso-profile-page.password.current')}
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          error={errors.currentPassword && t(errors.currentPassword)}
        />
      )}
      <InputField
        label={t('sso-profile-page.password.new')}
        type="password"
        autoComplete="new-password"
        required
        value={next}
        maxChars={PASSWORD_MAX_LENGTH}
        onChange={(e) => setNext(e.target.value)}
        error={errors.newPassword && t(errors.newPassword)}
      />
      <InputField
        label={t('sso-profile-page.password.repeat')}
        type="password"
        autoComplete="new-password"
        required
        value={repeat}
        onChange={(e) => setRepeat(e.target.value)}
        error={errors.repeat && t(errors.repeat)}
      />
      <p className="form-hint">{t('sso-profile-page.password.hint')}</p>
      <div className="form-actions">
        <button type="submit" className="button" disabled={sending}>
          {t('sso-profile-page.password.save')}
        </button>
      </div>
    </form>
  );
}

function EmailSection({ current, onDone }: { current: string; onDone: (pendingEmail: string) => void }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [reply, setReply] = useState<{ text: string; variant: 'success' | 'error' } | null>(null);
  const [sending, setSending] = useState(false);
  const { ref: formRef, refused } = useFocusFirstError();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setReply(null);
    const problem = ssoEmailProblem(email, current);
    if (problem) {
      setError(fieldTextKey('email', problem));
      refused();
      return;
    }
    setError(undefined);
    setSending(true);
    try {
      const answer = await ssoProfileApi(api).updateEmail(email.trim());
      setReply(answer.message ? { text: answer.message, variant: 'success' } : null);
      setEmail('');
      onDone(email.trim().toLowerCase());
    } catch (failure) {
      const keys = failureTextKeys(failure);
      if (keys.email) {
        setError(keys.email);
        refused();
      } else setReply({ text: generalFailureText(failure, t), variant: 'error' });
    } finally {
      setSending(false);
    }
  }

  return (
    <form
      ref={formRef}
      className="card sso-profile-section"
      onSubmit={submit}
      noValidate
      aria-labelledby="sso-email-title"
    >
      <h2 id="sso-email-title">{t('sso-profile-page.email.heading')}</h2>
      <ReplyMessage
        text={reply?.text ?? null}
        variant={reply?.variant ?? 'success'}
        onClose={() => setReply(null)}
      />
      <InputField
        label={t('sso-profile-page.email.new')}
        type="email"
        autoComplete="email"
        required
        value={email}
        maxChars={SSO_EMAIL_MAX_LENGTH}
        onChange={(e) => setEmail(e.target.value)}
        error={error && t(error)}
      />
      <p className="form-hint">{t('sso-profile-page.email.hint')}</p>
      <div className="form-actions">
        <button type="submit" className="button" disabled={sending}>
          {t('sso-profile-page.email.save')}
        </button>
      </div>
    </form>
  );
}

function DeleteSection({ email }: { email: string }) {
  const { t } = useTranslation();
  const { api, config, logout } = usePortal();
  const setAuth = useSetAtom(authStateAtom);
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const { ref: formRef, refused } = useFocusFirstError();

  async function confirm(event?: FormEvent) {
    event?.preventDefault();
    if (!deleteConfirmationMatches(typed, email)) {
      setError('sso-profile-page.delete.mismatch');
      refused();
      return;
    }
    setSending(true);
    try {
      const answer = await ssoProfileApi(api).deleteUser(typed.trim());
      if (answer.message) {
        setError(undefined);
        setSending(false);
        return;
      }
      // §4 "SSO delete": an empty reply closes the dialog, tells the host page and logs out. The
      // session is gone on the server already, so the local state is dropped before log-out
      // (no /logout call that would answer 401 and count as a timeout).
      setOpen(false);
      notifyHostFrame('accountDeleted', config.tenant.embedding.parentOrigins);
      setAuth({ sessionHasTimedOut: false });
      await logout({ accountDeleted: true });
    } catch (failure) {
      setError(failureTextKeys(failure).email ?? 'sso-profile-page.error');
      setSending(false);
      refused();
    }
  }

  return (
    <div
      className="card sso-profile-section sso-profile-delete"
      aria-labelledby="sso-delete-title"
      role="group"
    >
      <h2 id="sso-delete-title">{t('sso-profile-page.delete.heading')}</h2>
      <p>{t('sso-profile-page.delete.intro')}</p>
      <div className="form-actions">
        <button type="button" className="button button-danger" onClick={() => setOpen(true)}>
          {t('sso-profile-page.delete.button')}
        </button>
      </div>
      {open && (
        <Dialog
          title={t('sso-profile-page.delete.dialogTitle')}
          variant="error"
          onClose={() => setOpen(false)}
          actions={
            <>
              <button type="button" className="button button-secondary" onClick={() => setOpen(false)}>
                {t('sso-profile-page.cancel')}
              </button>
              <button
                type="submit"
                form="sso-delete-form"
                className="button button-danger"
                disabled={sending}
              >
                {t('sso-profile-page.delete.confirm')}
              </button>
            </>
          }
        >
          <form ref={formRef} id="sso-delete-form" onSubmit={confirm} noValidate>
            <p>{t('sso-profile-page.delete.dialogText')}</p>
            <InputField
              label={t('sso-profile-page.delete.confirmLabel')}
              type="email"
              autoComplete="off"
              required
              value={typed}
              maxChars={SSO_EMAIL_MAX_LENGTH}
              onChange={(e) => {
                setTyped(e.target.value);
                setError(undefined);
              }}
              error={error && t(error)}
            />
          </form>
        </Dialog>
      )}
    </div>
  );
}
