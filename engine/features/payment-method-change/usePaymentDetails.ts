import { useCallback, useState } from 'react';
import type { PaymentDetails } from '../../../schemas/generated/account-changes';
import { dataOf, useResource } from '../../account/resource';
import { isChangeablePaymentMethod, type ChangeablePaymentMethod } from '../../domain/paymentMethodChange';
import { paymentDetailsApi } from './paymentDetailsApi';

/**
 * The payment details page's state and calls (account-flows.md §4 "Payment method change"): the
 * details, whether the change is open, the method chosen (the only one offered needs no choice),
 * and the change finished: the form's answer is the new state, after the popup it is loaded again.
 */
export function usePaymentDetails(id: string) {
  const details = useResource<PaymentDetails>(`${id}/payment-details`, (api) =>
    paymentDetailsApi(api).details(id),
  );
  const [editing, setEditing] = useState(false);
  const [chosen, setChosen] = useState<ChangeablePaymentMethod | ''>('');
  const [saved, setSaved] = useState(false);
  const { replace, reload } = details;

  const finish = useCallback(
    (answer: PaymentDetails | null) => {
      setEditing(false);
      setChosen('');
      setSaved(true);
      // A form's answer is the new state; after the popup the server has it.
      if (answer) replace(answer);
      else reload();
    },
    [replace, reload],
  );

  const data = dataOf(details.state);
  const offered = (data?.allowedChanges ?? []).filter(isChangeablePaymentMethod);
  const selected: ChangeablePaymentMethod | '' = chosen || (offered.length === 1 ? offered[0] : '');
  return {
    details,
    data,
    offered,
    selected,
    holder: data?.account?.debitAccountHolder,
    setChosen,
    editing,
    setEditing,
    saved,
    setSaved,
    finish,
  };
}

export type PaymentDetailsModel = ReturnType<typeof usePaymentDetails>;
