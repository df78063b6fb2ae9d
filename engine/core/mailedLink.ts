import { useCallback, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from './apiClient';
import { tooManyText } from './tooManyText';
import type { TranslateFn } from './translation';
import { isDeadLinkAnswer } from '../domain/deadLink';
import { isRateLimited } from '../domain/retryAfter';

/**
 * What a page opened from a mailed link has come to: not yet acted on (`null`), done with what the
 * server answered, or refused. A refusal keeps the answer as it came, worded at each render, so a
 * language switch words it anew.
 */
export type MailedLinkOutcome<Done> =
  { kind: 'done'; value: Done } | { kind: 'refused'; error: unknown } | null;

/** How the link's outcome is kept in its history entry. */
interface MailedLinkState<Done> {
  mailedLinkDone?: { value: Done };
}

/** What a link without its token is answered with, as a token the server does not know would be. */
const NO_TOKEN = new ApiError(404, 'not_found', 'no token');

/**
 * The pages a mailed link opens (an opt-in's confirmation, taking an account's address back, linking
 * a subscription): opening one changes nothing, since a mail scanner follows links; a button acts
 * (`act`). Once it has, the address loses its spent token (the rest of the query, such as the
 * mail's language, stays) and the outcome is kept in the history entry, so a reload shows what
 * happened rather than a button that can only fail. A link without a token is refused at once.
 */
export function useMailedLink<Done>(tokenParam: string) {
  const navigate = useNavigate();
  const location = useLocation();
  const query = new URLSearchParams(location.search);
  const token = query.get(tokenParam) ?? '';
  const doneBefore = (location.state as MailedLinkState<Done> | null)?.mailedLinkDone;
  const [outcome, setOutcome] = useState<MailedLinkOutcome<Done>>(
    doneBefore
      ? { kind: 'done', value: doneBefore.value }
      : token
        ? null
        : { kind: 'refused', error: NO_TOKEN },
  );
  const [sending, setSending] = useState(false);
  // Stable, so that a page's check of the link can name it among its effect's dependencies.
  const refuse = useCallback((error: unknown) => setOutcome({ kind: 'refused', error }), []);

  async function act(send: () => Promise<Done>) {
    setSending(true);
    try {
      const value = await send();
      setOutcome({ kind: 'done', value });
      query.delete(tokenParam);
      const rest = query.toString();
      const state: MailedLinkState<Done> = { mailedLinkDone: { value } };
      navigate(`${location.pathname}${rest ? `?${rest}` : ''}`, { replace: true, state });
    } catch (error) {
      setOutcome({ kind: 'refused', error });
    } finally {
      setSending(false);
    }
  }

  return {
    token,
    outcome,
    sending,
    act,
    /** The link is refused without acting: the page's check found it dead. */
    refuse,
  };
}

/**
 * Why a mailed link did nothing, in the screen's language: too many tries (with when to try again),
 * a dead link (spent, expired, made up or cut short), a refusal the page words itself (by the
 * answer's code), or a failure.
 */
export function mailedLinkRefusal(
  t: TranslateFn,
  error: unknown,
  texts: { invalid: string; failed: string; byCode?: Record<string, string> },
): string {
  if (isRateLimited(error)) return tooManyText(t, error);
  if (isDeadLinkAnswer(error)) return t(texts.invalid);
  const own = error instanceof ApiError ? texts.byCode?.[error.code] : undefined;
  return t(own ?? texts.failed);
}
