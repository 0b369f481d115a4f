import type { NotificationRequested } from '@wp/contracts';
import type { Contact } from '../directory/directory.repository.js';

export interface TransferMailFacts {
  transferId: string;
  fromWallet: string;
  toWallet: string;
  amount: string;
  asset: string;
  code: string;
  minutes: number;
}

/**
 * The `notify.requested` payloads of transfer requests (auth delivers them): the code by mail,
 * or by SMS to a user without an email address. Null when the user has neither.
 */
export function senderCodeMessage(
  contact: Contact,
  facts: TransferMailFacts,
): NotificationRequested | null {
  const text =
    `Your code to confirm the transfer of ${facts.amount} ${facts.asset} from wallet ` +
    `${facts.fromWallet} to wallet ${facts.toWallet} is ${facts.code}. It expires in ` +
    `${facts.minutes} minutes. Transfer ${facts.transferId}. If you did not ask for this ` +
    'transfer, ignore this message: nothing moves without the code.';
  return message(
    contact,
    'wallet_transfer_sender_code',
    `Confirm your transfer of ${facts.amount} ${facts.asset}`,
    text,
  );
}

export function recipientCodeMessage(
  contact: Contact,
  facts: TransferMailFacts,
): NotificationRequested | null {
  const text =
    `Wallet ${facts.fromWallet} wants to send ${facts.amount} ${facts.asset} to wallet ` +
    `${facts.toWallet}. To accept it, use the code ${facts.code} within ${facts.minutes} ` +
    `minutes. Transfer ${facts.transferId}. Ignore this message to let it expire.`;
  return message(
    contact,
    'wallet_transfer_recipient_code',
    `Accept a transfer of ${facts.amount} ${facts.asset}`,
    text,
  );
}

function message(
  contact: Contact,
  template: string,
  subject: string,
  text: string,
): NotificationRequested | null {
  if (contact.email) return { channel: 'email', to: contact.email, subject, text, template };
  if (contact.phone) return { channel: 'sms', to: contact.phone, text, template };
  return null;
}
