import { codeAt, currentStep, TOTP_PARAMETERS } from '../../src/modules/two-factor/totp.js';
import type { AuthTestContext } from './auth-test-app.js';

/** An account with two-factor on, and what a test needs to produce its codes. */
export interface TwoFactorAccount {
  secret: string;
  recoveryCodes: string[];
  /** The time step whose code confirmed the enrolment (already spent). */
  confirmedStep: number;
}

/** The code of a time step (RFC 6238), as an authenticator app shows it. */
export function codeOfStep(secret: string, step: number): string {
  return codeAt(secret, step * TOTP_PARAMETERS.period * 1000);
}

/** Starts and confirms enrolment through the API; fails the test on any other answer. */
export async function enableTwoFactor(
  ctx: AuthTestContext,
  accessToken: string,
  password: string,
): Promise<TwoFactorAccount> {
  const started = await ctx.post(
    '/v1/api/users/me/two_factor',
    { password },
    ctx.bearer(accessToken),
  );
  if (started.statusCode !== 201) throw new Error(`start: ${started.statusCode} ${started.body}`);
  const secret = started.json<{ data: { attributes: { secret: string } } }>().data.attributes
    .secret;
  const confirmedStep = currentStep();
  const confirmed = await ctx.post(
    '/v1/api/users/me/two_factor/confirm',
    { code: codeOfStep(secret, confirmedStep) },
    ctx.bearer(accessToken),
  );
  if (confirmed.statusCode !== 200) {
    throw new Error(`confirm: ${confirmed.statusCode} ${confirmed.body}`);
  }
  const recoveryCodes = confirmed.json<{ data: { attributes: { recoveryCodes: string[] } } }>().data
    .attributes.recoveryCodes;
  return { secret, recoveryCodes, confirmedStep };
}

/** `POST /oauth/token` expecting 403 `TWO_FACTOR_REQUIRED`; returns the challenge token. */
export async function passwordStep(
  ctx: AuthTestContext,
  username: string,
  password: string,
): Promise<string> {
  const res = await ctx.post('/v1/api/oauth/token', { username, password });
  const body = res.json<{ errors: { code: string; meta: { challenge_token: string } }[] }>();
  if (res.statusCode !== 403 || body.errors[0]?.code !== 'TWO_FACTOR_REQUIRED') {
    throw new Error(`password step: ${res.statusCode} ${res.body}`);
  }
  return body.errors[0].meta.challenge_token;
}

/** A 6-digit code that is none of the codes valid around `step` (so certainly wrong). */
export function wrongCode(secret: string, step = currentStep()): string {
  const valid = new Set([-1, 0, 1, 2].map((d) => codeOfStep(secret, step + d)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}
