import { z } from 'zod';
import { UserSnapshot } from '../events/auth.events.js';

/**
 * Synchronous questions to auth over NATS request/reply (docs/architecture.md § Consistency): used
 * where a command needs an authoritative answer, never a possibly stale read model.
 */
export const RPC_CATALOG = {
  /** Find an account by email (case-insensitive). */
  'auth.rpc.users.find_by_email': {
    request: z.object({ email: z.string() }),
    response: z.object({ user: UserSnapshot.nullable() }),
  },
  /** Find accounts by ids. */
  'auth.rpc.users.find_by_ids': {
    request: z.object({ userIds: z.array(z.uuid()).max(1000) }),
    response: z.object({ users: z.array(UserSnapshot) }),
  },
} as const;

export type RpcSubject = keyof typeof RPC_CATALOG;
export type RpcRequest<S extends RpcSubject> = z.infer<(typeof RPC_CATALOG)[S]['request']>;
export type RpcResponse<S extends RpcSubject> = z.infer<(typeof RPC_CATALOG)[S]['response']>;
