import { OrganizationMember } from '../modules/memberships/organization-member.entity.js';
import { Wallet } from '../modules/wallets/wallet.entity.js';

/** Every entity of the wallet database (the platform adds the outbox tables). */
export const WALLET_ENTITIES = [Wallet, OrganizationMember];
