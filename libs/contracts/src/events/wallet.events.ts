import { z } from 'zod';

/** `wallet.wallet.created`: org keeps `has_wallet` on projects from it. */
export const WalletCreated = z.object({
  addressHash: z.string().regex(/^0x[0-9a-f]{40}$/),
  entityType: z.enum(['user', 'organization', 'project', 'agent']),
  entityId: z.string(),
  purpose: z.string(),
  currency: z.string(),
});
