import { useState, type FormEvent } from 'react';
import type { CompensationAnswer } from '../../../schemas/generated/account-changes';
import type { Subscription } from '../../../schemas/generated/subscription';
import { useResource } from '../../account/resource';
import { usePortal } from '../../core/PortalContext';
import { complaintReady, type CompensationOption, type ComplaintReason } from '../../domain/complaint';
import { complaintApi } from './complaintApi';
import { complaintFailureOf, type ComplaintFailure } from './complaintOutcomes';

/**
 * The complaint form's state and calls (account-flows.md §4 "Select issue, choose reason,
 * compensation options load; submit needs both"): the options are asked for the chosen issue once
 * a reason is chosen too (the server narrows the tenant's options per issue); a refusal because a
 * complaint exists or the maximum is reached, on asking or on sending, clears the issue, names the
 * refusal and loads the state again (`onStale`).
 */
export function useComplaintForm(s: Subscription, onStale: () => void) {
  const { api } = usePortal();
  const [issue, setIssue] = useState('');
  const [reason, setReason] = useState<ComplaintReason | ''>('');
  const [option, setOption] = useState<CompensationOption | ''>('');
  const [overlayClosedFor, setOverlayClosedFor] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<CompensationAnswer | null>(null);
  const [refusal, setRefusal] = useState<'exists' | 'limit' | null>(null);
  const [failed, setFailed] = useState(false);
  const asking = Boolean(issue && reason);
  // Asking for an issue's options can meet the same refusals as sending (§8 "Complaint: conflict"):
  // a complaint made meanwhile in another tab or by the order system. Those are named, as on send.
  const options = useResource<CompensationOption[] | null>(
    `${s.id}/compensation-options?${asking ? issue : ''}`,
    (client) =>
      asking
        ? complaintApi(client)
            .options(s.id, issue)
            .catch((error: unknown) => {
              const failure = complaintFailureOf(error);
              if (failure === 'complaint:failed') throw error;
              refuse(failure);
              return null;
            })
        : Promise.resolve(null),
  );
  const offered = options.state.status === 'ready' ? options.state.data : null;
  const ready = complaintReady({ issue, reason, option }) && offered?.includes(option as CompensationOption);

  function refuse(failure: Exclude<ComplaintFailure, 'complaint:failed'>) {
    setRefusal(failure === 'complaint:exists' ? 'exists' : 'limit');
    setIssue('');
    setOption('');
    onStale();
  }

  function chooseIssue(value: string) {
    setIssue(value);
    setOption('');
    setRefusal(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || sending) return;
    setSending(true);
    try {
      setAnswer(
        await complaintApi(api).request(s.id, {
          issue,
          complaintReason: reason as ComplaintReason,
          compensationOption: option as CompensationOption,
        }),
      );
    } catch (error) {
      const failure = complaintFailureOf(error);
      if (failure === 'complaint:failed') setFailed(true);
      else refuse(failure);
    } finally {
      setSending(false);
    }
  }

  return {
    issue,
    chooseIssue,
    reason,
    setReason,
    option,
    setOption,
    asking,
    options,
    offered,
    ready,
    overlayClosedFor,
    setOverlayClosedFor,
    sending,
    answer,
    refusal,
    failed,
    setFailed,
    submit,
  };
}

export type ComplaintFormModel = ReturnType<typeof useComplaintForm>;
