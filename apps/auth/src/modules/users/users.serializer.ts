/** The contract's "Activation-required registration response" (HTTP 201), field for field. */
export interface ActivationRequiredResource {
  user_id: string;
  status: 201;
  message: string;
  activationRequired: true;
}

/** The contract's "Email / phone validation response". */
export interface ValidationResource {
  valid: boolean;
  exists: boolean;
}

export function toActivationRequired(
  userId: string,
  method: 'email' | 'phone',
): ActivationRequiredResource {
  return {
    user_id: userId,
    status: 201,
    message: `Account created. Enter the 6-digit code sent by ${method === 'phone' ? 'SMS' : 'email'} to activate it.`,
    activationRequired: true,
  };
}
