import { Inject, Injectable } from '@nestjs/common';
import type { NotificationRequested } from '@wp/contracts';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';

const PRODUCT = 'Workspace Platform';

/** Message templates auth sends (`template` of `notify.requested`). */
export const AUTH_TEMPLATES = {
  activation: 'auth.activation',
  passwordReset: 'auth.password_reset',
} as const;

/**
 * Renders the messages auth itself requests, as `notify.requested` payloads (contracts
 * `NotificationRequested`). Producers render, the notification consumer only delivers
 * (docs/architecture.md § Mail and SMS).
 */
@Injectable()
export class NotificationComposer {
  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  /** The 6-digit activation code, by email or by SMS; the text contains the code. */
  activation(
    to: { email: string | null; phone: string | null },
    code: string,
  ): NotificationRequested {
    const minutes = Math.round(this.config.ACTIVATION_CODE_TTL_SECONDS / 60);
    if (to.phone !== null) {
      return {
        channel: 'sms',
        to: to.phone,
        text: `${code} is your ${PRODUCT} activation code. It expires in ${minutes} minutes.`,
        template: AUTH_TEMPLATES.activation,
      };
    }
    return {
      channel: 'email',
      to: to.email ?? '',
      subject: `Your ${PRODUCT} activation code: ${code}`,
      text:
        `Welcome to ${PRODUCT}.\n\n` +
        `Your activation code is ${code}\n\n` +
        `It expires in ${minutes} minutes. If you did not create an account, ignore this email.\n`,
      template: AUTH_TEMPLATES.activation,
    };
  }

  /**
   * The reset mail. The token travels only in the link's fragment, which browsers never send
   * to a server, and in an `X-Reset-Token` header; never in a query string
   * (docs/api.md § Authentication 10; docs/architecture.md § Mail and SMS).
   */
  passwordReset(email: string, token: string): NotificationRequested {
    const link = resetLink(this.config.PUBLIC_WEB_URL, token, email);
    const minutes = Math.round(this.config.PASSWORD_RESET_TOKEN_TTL_SECONDS / 60);
    return {
      channel: 'email',
      to: email,
      subject: `Reset your ${PRODUCT} password`,
      text:
        `Someone asked to reset the password of your ${PRODUCT} account.\n\n` +
        `Choose a new password here:\n${link}\n\n` +
        `The link works once and expires in ${minutes} minutes. ` +
        `If you did not ask for it, ignore this email: your password stays as it is.\n`,
      headers: { 'X-Reset-Token': token },
      template: AUTH_TEMPLATES.passwordReset,
    };
  }
}

/** `<base>/reset-password#token=<token>&email=<email>`: the secret part is the fragment. */
export function resetLink(baseUrl: string, token: string, email: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/reset-password`;
  url.search = '';
  url.hash = new URLSearchParams({ token, email }).toString();
  return url.toString();
}
