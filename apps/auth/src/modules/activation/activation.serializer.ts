import type { ActivationChannel } from './activation-code.entity.js';

/**
 * `POST /users/{userId}/resend_activation` answer (the contract leaves it open; docs/auth.md):
 * modelled on the activation-required registration body, `{user_id, status: 200, message,
 * method, expiresIn}` with `method` the channel the code went to and `expiresIn` its lifetime
 * in seconds.
 */
export interface ResendActivationResource {
  user_id: string;
  status: 200;
  message: string;
  method: ActivationChannel;
  expiresIn: number;
}

export function toResendActivationResource(
  userId: string,
  method: ActivationChannel,
  expiresIn: number,
): ResendActivationResource {
  return {
    user_id: userId,
    status: 200,
    message: `A new 6-digit code was sent by ${method === 'phone' ? 'SMS' : 'email'}. Earlier codes no longer work.`,
    method,
    expiresIn,
  };
}
