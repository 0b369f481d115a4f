import { DomainError } from '@wp/http';

export type SentinelPassErrorCode =
  | 'NOT_FOUND'
  | 'SENTINEL_PASS_ALREADY_REVOKED'
  | 'SENTINEL_PASS_ALREADY_ACTIVE'
  | 'SENTINEL_PASS_REVOKED';

/** 404: no such pass in this project (or the project is not visible to the caller). */
export class SentinelPassNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'NOT_FOUND', 'Sentinel Pass not found');
  }
}

/** 409 `SENTINEL_PASS_ALREADY_REVOKED`: `revoke` on a pass whose `active` is already false. */
export class SentinelPassAlreadyRevokedError extends DomainError {
  constructor() {
    super('conflict', 'SENTINEL_PASS_ALREADY_REVOKED', 'Sentinel Pass already revoked', {
      detail: 'The pass is not active; activate it first.',
    });
  }
}

/** 409 `SENTINEL_PASS_ALREADY_ACTIVE`: `activate` on an active pass. */
export class SentinelPassAlreadyActiveError extends DomainError {
  constructor() {
    super('conflict', 'SENTINEL_PASS_ALREADY_ACTIVE', 'Sentinel Pass already active', {
      detail: 'The pass is already active.',
    });
  }
}

/**
 * 409 `SENTINEL_PASS_REVOKED`: `rotate_key` on a revoked pass
 * (docs/api.md § States and transitions: rotation is a transition of an active pass; activate it
 * first).
 */
export class SentinelPassRevokedError extends DomainError {
  constructor() {
    super('conflict', 'SENTINEL_PASS_REVOKED', 'Sentinel Pass revoked', {
      detail: 'A revoked pass cannot rotate its key; activate it first.',
    });
  }
}
