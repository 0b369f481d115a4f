import { DomainError } from '@wp/http';

export type WalletErrorCode =
  | 'WALLET_NOT_FOUND'
  | 'ENTITY_NOT_FOUND'
  | 'INSUFFICIENT_PERMISSIONS'
  | 'WALLET_ALREADY_EXISTS'
  | 'ORGANIZATION_MISMATCH';

/**
 * 404 for an unknown wallet and for a wallet the caller may not see
 * (docs/architecture.md § Identity and access: no existence leak).
 */
export class WalletNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'WALLET_NOT_FOUND' satisfies WalletErrorCode, 'Wallet not found', {
      detail: 'No wallet with this address is visible to you.',
    });
  }
}

/** 404 for an entity (user, organization, project, agent) the caller does not belong to. */
export class EntityNotFoundError extends DomainError {
  constructor(entityType: string) {
    super('not_found', 'ENTITY_NOT_FOUND' satisfies WalletErrorCode, 'Entity not found', {
      detail: `No ${entityType} with this id is visible to you.`,
      source: { pointer: '/entity_wallet/entity_id' },
    });
  }
}

/** 403: the caller sees the wallet (or entity) but may not do this with it. */
export class InsufficientPermissionsError extends DomainError {
  constructor(detail: string) {
    super('forbidden', 'INSUFFICIENT_PERMISSIONS' satisfies WalletErrorCode, 'Forbidden', {
      detail,
    });
  }
}

/** 409: the entity already has a wallet for this purpose; `meta.address_hash` names it. */
export class WalletAlreadyExistsError extends DomainError {
  constructor(addressHash: string) {
    super('conflict', 'WALLET_ALREADY_EXISTS' satisfies WalletErrorCode, 'Wallet already exists', {
      detail: 'This entity already has a wallet for this purpose.',
      source: { pointer: '/entity_wallet/purpose' },
      meta: { address_hash: addressHash },
    });
  }
}

/** 422: `metadata.organization_id` of a project wallet is not the project's organization. */
export class OrganizationMismatchError extends DomainError {
  constructor() {
    super('rule', 'ORGANIZATION_MISMATCH' satisfies WalletErrorCode, 'Organization mismatch', {
      detail: 'metadata.organization_id must be the organization the project belongs to.',
      source: { pointer: '/entity_wallet/metadata/organization_id' },
    });
  }
}
