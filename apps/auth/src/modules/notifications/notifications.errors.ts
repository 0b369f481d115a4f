/**
 * A delivery that can never succeed (the mail server refused the recipient with a 5xx, the SMS
 * gateway answered 4xx, SMS is not configured): logged and dropped instead of retried forever.
 * Anything else thrown by a sender is transient and the event is redelivered.
 */
export class PermanentDeliveryError extends Error {
  override readonly name = 'PermanentDeliveryError';
}
