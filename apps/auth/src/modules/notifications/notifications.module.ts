import { Module } from '@nestjs/common';
import { NotifyRequestedHandlers } from './handlers/notify-requested.handlers.js';
import { NotificationComposer } from './notification-composer.js';
import { NotificationSender } from './notification-sender.js';

/** Mail and SMS: auth's own templates, and delivery of every service's `notify.requested`. */
@Module({
  providers: [NotificationComposer, NotificationSender, NotifyRequestedHandlers],
  exports: [NotificationComposer],
})
export class NotificationsModule {}
