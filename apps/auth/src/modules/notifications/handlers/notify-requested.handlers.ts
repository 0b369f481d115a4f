import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '@wp/messaging';
import { NotificationSender } from '../notification-sender.js';
import { PermanentDeliveryError } from '../notifications.errors.js';

/**
 * Consumer `auth.notifications` of `notify.requested`
 * (docs/architecture.md § Data ownership and events): any service (auth itself, org invitations,
 * wallet transfer codes) asks for a mail or SMS by enqueuing the event in its outbox; this delivers
 * it. HTTP requests never wait for it. A transient failure throws, so JetStream redelivers with
 * back-off until the message is out; a permanent one is logged and dropped. Delivery is at least
 * once: a crash between hand-over and ack can send twice.
 */
@Injectable()
export class NotifyRequestedHandlers implements OnModuleInit {
  private readonly logger = new Logger('Notifications');

  constructor(
    private readonly bus: EventBus,
    private readonly sender: NotificationSender,
  ) {}

  onModuleInit(): void {
    this.bus.on('notify.requested', 'notifications', async (event) => {
      const { channel, template } = event.payload;
      try {
        await this.sender.send(event.payload);
      } catch (error) {
        if (error instanceof PermanentDeliveryError) {
          this.logger.error(`${channel} ${template} (event ${event.id}) dropped: ${error.message}`);
          return;
        }
        throw error;
      }
    });
  }
}
