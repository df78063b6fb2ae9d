/**
 * Local stand-ins for the payment providers' HTTP APIs, for tests that drive the real `stripe` and
 * `@mollie/api-client` SDKs (see each file for what it implements and how to point the SDK at it).
 */
export {
  startStripeStandin,
  parseStripeForm,
  type CheckoutSession,
  type FormObject,
  type FormValue,
  type StripeDelivery,
  type StripeEvent,
  type StripeStandin,
  type StripeStandinOptions,
} from './stripeStandin';
export {
  startMollieStandin,
  type MollieCustomer,
  type MollieDelivery,
  type MollieMandate,
  type MollieOutcome,
  type MolliePayment,
  type MolliePaymentStatus,
  type MollieStandin,
} from './mollieStandin';
