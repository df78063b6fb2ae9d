/**
 * The studio editor's state and calls (docs/operators.md "Operators: the studio"): the tenant file
 * open, its draft as the live preview shows it, the demo user the preview is signed in as, and the
 * review of the diff before a save.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { IChangeEvent } from '@rjsf/core';
import type { RJSFSchema } from '@rjsf/utils';
import { mergeGroup, type StudioGroup } from './groups';
import type { StudioIssue } from './fieldErrors';
import { editorText as t } from './pageLang';
import { studioApi, type DiffLine } from './studioApi';

export type Tenant = Record<string, unknown>;
export type ThemePresets = Record<string, { colors: Record<string, string> }>;
export interface Review {
  diff: DiffLine[];
  issues: StudioIssue[];
  /** The file as the server names it (its folder: tenants/ or PORTAL_TENANTS_DIR). */
  file?: string;
}
type Frames = RefObject<Array<HTMLIFrameElement | null>>;

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

/** The draft the preview frames show: each push answers with its problems and a version. */
function useDraft() {
  const [draftId] = useState(newDraftId);
  const [issues, setIssues] = useState<StudioIssue[]>([]);
  const [warnings, setWarnings] = useState<StudioIssue[]>([]);
  const [version, setVersion] = useState(0);
  const [upToDate, setUpToDate] = useState(true);
  const [apiTenant, setApiTenant] = useState<string>();
  const frames = useRef<Array<HTMLIFrameElement | null>>([]);

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

  const frameSrc = `/studio/preview/${draftId}/${previewLang ? `?lang=${encodeURIComponent(previewLang)}` : ''}`;
  return {
    issues,
    setIssues,
    warnings,
    setWarnings,
    version,
    upToDate,
    apiTenant,
    frames,
    frameSrc,
    pushDraft,
  };
}

/**
 * The demo users of the previewed tenant and the one the frames are signed in as. A tenant that is
 * no demo has nobody to sign in as: the bar says how its data comes in instead.
 */
function useDemoSignIn(apiTenant: string | undefined, frames: Frames, frameSrc: string) {
  const [users, setUsers] = useState<Array<{ email: string; name?: string }>>([]);
  const [demo, setDemo] = useState(true);
  // The `portal` command as the operator types it, with the server's PORTAL_TENANTS_DIR and PORTAL_DATA_DIR.
  const [command, setCommand] = useState('npx portal');
  const [user, setUser] = useState('');

  useEffect(() => {
    if (!apiTenant) return;
    void studioApi.demoUsers(apiTenant).then((answer) => {
      setUsers(answer.users);
      setDemo(answer.demo);
      setCommand(answer.command ?? 'npx portal');
    });
  }, [apiTenant]);

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

  return { users, demo, command, user, signIn };
}

type SaveAnswer = Awaited<ReturnType<typeof studioApi.save>>;

/** The diff shown before a save, the confirmation of the problems saved with it, and the save. */
function useReview(
  fileId: string | undefined,
  data: Tenant | undefined,
  onSaved: (answer: SaveAnswer) => Promise<void>,
  setMessage: (message: string) => void,
) {
  const [review, setReview] = useState<Review>();
  const [confirmed, setConfirmed] = useState(false);

  async function startReview() {
    if (!data || !fileId) return;
    const answer = await studioApi.diff(fileId, data);
    setConfirmed(false);
    setReview({ diff: answer.diff, issues: answer.issues, file: answer.file });
  }

  async function save() {
    if (!data || !fileId || !review) return;
    try {
      const answer = await studioApi.save(fileId, data, confirmed ? review.issues.length : 0);
      setReview(undefined);
      await onSaved(answer);
    } catch (error) {
      setMessage((error as Error).message);
    }
  }

  return { review, confirmed, setConfirmed, startReview, save, closeReview: () => setReview(undefined) };
}

/** The editor's state: the schema, the tenant files, the one open and its draft, the review. */
export function useStudio() {
  const [schema, setSchema] = useState<RJSFSchema>();
  const [presets, setPresets] = useState<ThemePresets>({});
  const [files, setFiles] = useState<Array<{ id: string; name?: string }>>([]);
  const [fileId, setFileId] = useState<string>();
  const [exists, setExists] = useState(true);
  const [data, setData] = useState<Tenant>();
  const [message, setMessage] = useState<string>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const draft = useDraft();
  const { pushDraft, setIssues, setWarnings } = draft;
  const preview = useDemoSignIn(draft.apiTenant, draft.frames, draft.frameSrc);
  const reviewing = useReview(
    fileId,
    data,
    async (answer) => {
      setExists(true);
      setIssues(answer.issues);
      setMessage(t('saved', { file: answer.file, command: answer.command }));
      setFiles(await studioApi.tenants().then((tenants) => tenants.files));
    },
    setMessage,
  );

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

  async function open(id: string) {
    const file = await studioApi.tenant(id);
    setFileId(id);
    setExists(file.exists);
    setData(file.data);
    setIssues(file.issues);
    setWarnings(file.warnings);
    reviewing.closeReview();
    setMessage(undefined);
    await pushDraft(id, file.data);
  }

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

  return {
    schema,
    presets,
    files,
    fileId,
    exists,
    data,
    message,
    setMessage,
    open,
    onTabChange,
    draft,
    preview,
    reviewing,
  };
}

export type Studio = ReturnType<typeof useStudio>;
