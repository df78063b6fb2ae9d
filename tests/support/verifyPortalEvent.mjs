import { Webhook } from 'standardwebhooks';

/**
 * Checks a delivery of the portal's account events before anything trusts it: the signature over
 * webhook-id, webhook-timestamp and the raw body with the endpoint's secret (whsec_…), and a
 * timestamp at most five minutes off. Returns the event; throws a WebhookVerificationError
 * otherwise. Pass the body exactly as it arrived (a Buffer or a string), never parsed and
 * serialized again: a single changed byte fails the signature.
 */
export function verifyPortalEvent(rawBody, headers, secret) {
  return new Webhook(secret).verify(rawBody, headers);
}

// Express:
// app.post('/portal-events', express.raw({ type: 'application/json' }), (req, res) => {
//   let event;
//   try {
//     event = verifyPortalEvent(req.body, req.headers, process.env.PORTAL_WEBHOOK_SECRET);
//   } catch {
//     return res.sendStatus(400);
//   }
//   // A delivery can come twice: skip event.id if it was processed already.
//   res.sendStatus(204);
// });
