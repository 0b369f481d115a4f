import { Asset, ConversionRate } from '../modules/assets/asset.entity.js';
import { DirectoryUser } from '../modules/directory/directory-user.entity.js';
import { Balance } from '../modules/ledger/balance.entity.js';
import { JournalEntry } from '../modules/ledger/journal-entry.entity.js';
import { Posting } from '../modules/ledger/posting.entity.js';
import { OrganizationMember } from '../modules/memberships/organization-member.entity.js';
import { ProjectMember } from '../modules/memberships/project-member.entity.js';
import { Agent, Project } from '../modules/memberships/project.entity.js';
import { TransferRequest } from '../modules/transfers/transfer-request.entity.js';
import { Wallet } from '../modules/wallets/wallet.entity.js';

/** Every entity of the wallet database (the platform adds the outbox tables). */
export const WALLET_ENTITIES = [
  Wallet,
  OrganizationMember,
  ProjectMember,
  Project,
  Agent,
  DirectoryUser,
  Asset,
  ConversionRate,
  Balance,
  JournalEntry,
  Posting,
  TransferRequest,
];
