/**
 * The account event types (docs/reference.md "Account events: what is recorded"): one typed list,
 * with the subject each type is filed under. Type names and payloads come from the schemas — the
 * tenant file's `accountEventType` (which endpoints want which types) and
 * schemas/api/account-event.schema.json (the body a receiver gets);
 * tests/server/events/eventTypes.test.ts fails when the three drift. A flow that adds a change adds
 * its type to both schemas and one line here.
 */
import type { AccountEvent } from '../../schemas/generated/account-event';
import type { AccountEventType } from '../../schemas/generated/tenant';

export type { AccountEvent, AccountEventType };

/** The `data` of one event type, as documented in the schema. */
export type AccountEventData<T extends AccountEventType> = Extract<AccountEvent, { type: T }>['data'];

/** What an event is about, for listings (`portal events`) and look-ups by subject. */
export interface EventSubject {
  type:
    | 'account'
    | 'subscription'
    | 'purchase_order'
    | 'contact_message'
    | 'business_partner'
    | 'payment'
    | 'opt_in_widget_signup';
  id: string;
}

/** Per type: the subject it is filed under, and the account that made the change. */
const EVENT_TYPES: {
  [T in AccountEventType]: {
    subject: (data: AccountEventData<T>) => EventSubject;
    userId: (data: AccountEventData<T>) => string | null;
  };
} = {
  'account.created': { subject: (d) => ({ type: 'account', id: d.userId }), userId: (d) => d.userId },
  'subscription.linked': {
    subject: (d) =>
      d.subscriptionId
        ? { type: 'subscription', id: d.subscriptionId }
        : { type: 'business_partner', id: d.bpNumber },
    userId: (d) => d.userId,
  },
  'invoice.requested': {
    subject: (d) =>
      d.subjectKind === 'purchase-order'
        ? { type: 'purchase_order', id: d.purchaseOrderId! }
        : { type: 'subscription', id: d.subscriptionId! },
    userId: (d) => d.userId,
  },
  'contact_message.created': {
    subject: (d) => ({ type: 'contact_message', id: d.messageId }),
    userId: (d) => d.userId,
  },
  'order_attribute.changed': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'subscription.cancelled': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'subscription.cancellation_revoked': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'offer.accepted': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'payment.settled': { subject: (d) => ({ type: 'payment', id: d.paymentId }), userId: (d) => d.userId },
  'payment.refunded': { subject: (d) => ({ type: 'payment', id: d.paymentId }), userId: (d) => d.userId },
  'holiday_service.set': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'holiday_service.cancelled': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'phase_upgrade.requested': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'payment_method.changed': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'complaint.created': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'address.changed': {
    subject: (d) => ({ type: 'business_partner', id: d.bpNumber }),
    userId: (d) => d.userId,
  },
  'opt_ins.changed': {
    subject: (d) => ({ type: 'business_partner', id: d.bpNumber }),
    userId: (d) => d.userId,
  },
  'opt_in.confirmed': {
    subject: (d) => ({ type: 'business_partner', id: d.bpNumber }),
    userId: (d) => d.userId,
  },
  'e_card.scheduled': {
    subject: (d) =>
      d.subscriptionId ? { type: 'subscription', id: d.subscriptionId } : { type: 'account', id: d.userId },
    userId: (d) => d.userId,
  },
  'e_card.sent': {
    subject: (d) =>
      d.subscriptionId ? { type: 'subscription', id: d.subscriptionId } : { type: 'account', id: d.userId },
    userId: (d) => d.userId,
  },
  'e_card.cancelled': {
    subject: (d) =>
      d.subscriptionId ? { type: 'subscription', id: d.subscriptionId } : { type: 'account', id: d.userId },
    userId: (d) => d.userId,
  },
  'email_widget.linked': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: () => null,
  },
  'opt_in_widget.signed_up': {
    subject: (d) => ({ type: 'opt_in_widget_signup', id: d.signupId }),
    userId: () => null,
  },
  'opt_in_widget.confirmed': {
    subject: (d) => ({ type: 'opt_in_widget_signup', id: d.signupId }),
    userId: () => null,
  },
  'sso_profile.password_changed': {
    subject: (d) => ({ type: 'account', id: d.userId }),
    userId: (d) => d.userId,
  },
  'account.password_reset': { subject: (d) => ({ type: 'account', id: d.userId }), userId: (d) => d.userId },
  'sso_profile.email_change_requested': {
    subject: (d) => ({ type: 'account', id: d.userId }),
    userId: (d) => d.userId,
  },
  'sso_profile.email_changed': {
    subject: (d) => ({ type: 'account', id: d.userId }),
    userId: (d) => d.userId,
  },
  'sso_profile.deleted': { subject: (d) => ({ type: 'account', id: d.userId }), userId: (d) => d.userId },
  'data_export.requested': { subject: (d) => ({ type: 'account', id: d.userId }), userId: (d) => d.userId },
  'loyalty.opted_in': { subject: (d) => ({ type: 'account', id: d.userId }), userId: (d) => d.userId },
  'loyalty.opted_out': { subject: (d) => ({ type: 'account', id: d.userId }), userId: (d) => d.userId },
  'loyalty.reward_claimed': { subject: (d) => ({ type: 'account', id: d.userId }), userId: (d) => d.userId },
  'loyalty.favorite_changed': {
    subject: (d) => ({ type: 'account', id: d.userId }),
    userId: (d) => d.userId,
  },
  'license.added': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'license.activated': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'license.deactivated': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'license.deleted': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'license.invitation_sent': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'license.accepted': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'license_manager.replaced': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'license_manager.appointment_sent': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  'license_manager.appointment_withdrawn': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
  // Filed under the rejected change's own subject, so a listing by subject shows both.
  'change.rejected': { subject: (d) => d.subject, userId: (d) => d.userId },
  // The retention insights' "flow started" (docs/operators.md "Retention insights").
  'offer_flow.started': {
    subject: (d) => ({ type: 'subscription', id: d.subscriptionId }),
    userId: (d) => d.userId,
  },
};

/** Every event type, in the order of the schema. */
export const ACCOUNT_EVENT_TYPES = Object.keys(EVENT_TYPES) as AccountEventType[];

export function eventSubject<T extends AccountEventType>(type: T, data: AccountEventData<T>): EventSubject {
  return EVENT_TYPES[type].subject(data);
}

export function eventUserId<T extends AccountEventType>(type: T, data: AccountEventData<T>): string | null {
  return EVENT_TYPES[type].userId(data);
}
