import { randomBytes } from 'node:crypto';

/** A new wallet address: `0x` + 40 lower-case hex characters (160 random bits). */
export function newWalletAddress(): string {
  return `0x${randomBytes(20).toString('hex')}`;
}

export const WALLET_ADDRESS = /^0x[0-9a-f]{40}$/;
