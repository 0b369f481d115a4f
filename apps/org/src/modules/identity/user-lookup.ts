import { Injectable } from '@nestjs/common';
import type { UserSnapshot } from '@wp/contracts';
import { RpcClient } from '@wp/messaging';

/**
 * Authoritative account look-ups, asked of auth synchronously over NATS request/reply
 * (docs/architecture.md § Consistency): whether an email has an account decides between adding a
 * member and inviting, so it must not come from the eventually consistent user directory. A
 * user who registered a moment ago is found. Auth not answering is a 503, never a guess.
 */
@Injectable()
export class UserLookup {
  constructor(private readonly rpc: RpcClient) {}

  /**
   * The account with this email, or null. Auth compares by username key, so any spelling of the
   * address finds it: case, width, Unicode normalization, IDNA (docs/auth.md § Usernames).
   */
  async findByEmail(email: string): Promise<UserSnapshot | null> {
    const { user } = await this.rpc.request('auth.rpc.users.find_by_email', { email });
    return user;
  }
}
