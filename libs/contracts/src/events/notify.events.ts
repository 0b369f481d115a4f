import { z } from 'zod';

/**
 * `notify.requested`: a mail or SMS to send (docs/architecture.md § Mail and SMS). The producer
 * renders the text; auth's notification consumer delivers it with retries.
 */
export const NotificationRequested = z.discriminatedUnion('channel', [
  z.object({
    channel: z.literal('email'),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    template: z.string(),
  }),
  z.object({
    channel: z.literal('sms'),
    to: z.string(),
    text: z.string(),
    template: z.string(),
  }),
]);
export type NotificationRequested = z.infer<typeof NotificationRequested>;
