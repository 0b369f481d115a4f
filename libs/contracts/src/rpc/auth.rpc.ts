import { z } from 'zod';
import { UserSnapshot } from '../events/auth.events.js';
import { ROLES } from '../roles.js';

/**
 * Synchronous questions to auth over NATS request/reply (docs/architecture.md § Consistency): used
 * where a command needs an authoritative answer, never a possibly stale read model.
 */
export const RPC_CATALOG = {
  /**
   * Find an account by email, in any spelling: auth compares username keys (docs/auth.md §
   * Usernames).
   */
  'auth.rpc.users.find_by_email': {
    request: z.object({ email: z.string() }),
    response: z.object({ user: UserSnapshot.nullable() }),
  },
  /** Find accounts by ids. */
  'auth.rpc.users.find_by_ids': {
    request: z.object({ userIds: z.array(z.uuid()).max(1000) }),
    response: z.object({ users: z.array(UserSnapshot) }),
  },
  /**
   * org, authoritatively: one user's standing in an organization and, when `projectId` is set,
   * in one of its projects (docs/architecture.md § Withdrawn permissions at once).
   */
  'org.rpc.memberships.standing': {
    request: z.object({
      organizationId: z.number().int().positive(),
      projectId: z.number().int().positive().nullable(),
      userId: z.uuid(),
    }),
    response: z.object({
      organizationRole: z.enum(ROLES).nullable(),
      projectRole: z.enum(ROLES).nullable(),
      accessDenied: z.boolean(),
      /**
       * `projectId` names a project that no longer exists (deleted): its wallets move nothing
       * and its data is nobody's to read. Absent from older org processes' answers: false.
       */
      projectDeleted: z.boolean().optional(),
    }),
  },
} as const;

export type RpcSubject = keyof typeof RPC_CATALOG;
export type RpcRequest<S extends RpcSubject> = z.infer<(typeof RPC_CATALOG)[S]['request']>;
export type RpcResponse<S extends RpcSubject> = z.infer<(typeof RPC_CATALOG)[S]['response']>;
