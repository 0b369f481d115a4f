import type { UserSnapshot } from '@wp/contracts';
import type { User } from './user.entity.js';

/** The user as other services see it (events, RPC). */
export function toUserSnapshot(user: User): UserSnapshot {
  return {
    userId: user.id,
    email: user.email,
    phone: user.phone,
    firstName: user.firstName,
    lastName: user.lastName,
    status: user.status,
  };
}
