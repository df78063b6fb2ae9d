import { useEffect, useState } from 'react';
import { acceptOutcome, type AcceptOutcome } from './licenseErrors';

/**
 * What a link from an e-mail opens, the licence invitation or the manager appointment
 * (account-flows.md §5 "Accept licence", §6; outcomes of §8): its information read with the link's
 * token, which is the proof (without one: invalidLink), loaded again on try again; a refusal is the
 * notice's outcome. `Done` is the page's own outcome once its button has worked. `onInfo` sees each
 * answer (the accept form prefills the invited person's names).
 */
export function useLinkInfo<Info, Done extends string>(
  token: string,
  load: () => Promise<Info>,
  link: readonly string[],
  onInfo?: (info: Info) => void,
) {
  const [info, setInfo] = useState<Info | null>(null);
  const [outcome, setOutcome] = useState<AcceptOutcome | Done | 'loading' | null>('loading');
  const [round, setRound] = useState(0);
  const [refusal, setRefusal] = useState<unknown>();

  useEffect(() => {
    let live = true;
    if (!token) {
      setOutcome('invalidLink');
      return undefined;
    }
    setOutcome('loading');
    load().then(
      (answer) => {
        if (!live) return;
        setInfo(answer);
        onInfo?.(answer);
        setOutcome(null);
      },
      (error) => {
        if (!live) return;
        setRefusal(error);
        setOutcome(acceptOutcome(error));
      },
    );
    return () => {
      live = false;
    };
    // `load` and `onInfo` are new functions each render; the link, its token and the round decide.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  }, [...link, token, round]);

  const refuse = (error: unknown) => {
    setRefusal(error);
    setOutcome(acceptOutcome(error));
  };
  return { info, outcome, setOutcome, refusal, refuse, tryAgain: () => setRound((n) => n + 1) };
}
