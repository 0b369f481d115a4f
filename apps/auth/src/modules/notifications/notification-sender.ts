import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { NotificationRequested } from '@wp/contracts';
import { mailboxOf } from '@wp/identity';
import { createTransport, type Transporter } from 'nodemailer';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { PermanentDeliveryError } from './notifications.errors.js';

type EmailNotification = Extract<NotificationRequested, { channel: 'email' }>;
type SmsNotification = Extract<NotificationRequested, { channel: 'sms' }>;

/**
 * Hands one notification to the outside world (docs/architecture.md § Mail and SMS): mail through
 * SMTP (`SMTP_URL`, nodemailer), SMS as `POST {"to","body"}` JSON to `SMS_WEBHOOK_URL`. Each
 * attempt is bounded by `NOTIFY_SEND_TIMEOUT_MS`. Mail goes to the address's mailbox form (NFKC
 * local part, IDNA ASCII domain: docs/auth.md § Usernames), so an address kept as typed with
 * fullwidth letters or a Unicode domain is still deliverable. Throws {@link PermanentDeliveryError} when a
 * retry cannot help, any other error when it can.
 */
@Injectable()
export class NotificationSender implements OnApplicationShutdown {
  private readonly mailer: Transporter;

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {
    const timeout = config.NOTIFY_SEND_TIMEOUT_MS;
    this.mailer = createTransport(
      {
        url: config.SMTP_URL,
        // Keep connections open between messages: one SMTP handshake per message would cap
        // delivery at a few messages per second.
        pool: true,
        maxConnections: 2,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
      },
      { from: config.MAIL_FROM },
    );
  }

  async send(notification: NotificationRequested): Promise<void> {
    switch (notification.channel) {
      case 'email':
        return this.sendMail(notification);
      case 'sms':
        return this.sendSms(notification);
    }
  }

  onApplicationShutdown(): void {
    this.mailer.close();
  }

  private async sendMail(mail: EmailNotification): Promise<void> {
    try {
      await this.mailer.sendMail({
        to: mailboxOf(mail.to),
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
      });
    } catch (error) {
      const { permanent, responseCode } = error as { permanent?: boolean; responseCode?: number };
      if (permanent === true) {
        throw new PermanentDeliveryError(`mail refused by the SMTP server (${responseCode})`);
      }
      throw error;
    }
  }

  private async sendSms(sms: SmsNotification): Promise<void> {
    const url = this.config.SMS_WEBHOOK_URL;
    if (!url) throw new PermanentDeliveryError('SMS_WEBHOOK_URL is not configured');
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: sms.to, body: sms.text }),
      signal: AbortSignal.timeout(this.config.NOTIFY_SEND_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.ok) return;
    const retryable = response.status >= 500 || response.status === 408 || response.status === 429;
    const message = `SMS gateway answered ${response.status}`;
    throw retryable ? new Error(message) : new PermanentDeliveryError(message);
  }
}
