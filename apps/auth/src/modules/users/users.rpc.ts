import { Injectable, type OnModuleInit } from '@nestjs/common';
import { emailKey } from '@wp/identity';
import { RpcServer } from '@wp/messaging';
import { toUserSnapshot } from '../accounts/user.snapshot.js';
import { UsersRepository } from '../accounts/users.repository.js';

/** Answers other services' authoritative user look-ups (contracts `RPC_CATALOG`). */
@Injectable()
export class UsersRpc implements OnModuleInit {
  constructor(
    private readonly rpc: RpcServer,
    private readonly users: UsersRepository,
  ) {}

  onModuleInit(): void {
    // Any spelling of the address finds its account (docs/auth.md § Usernames): org's add_user
    // and invitations ask with what the inviter typed.
    this.rpc.handle('auth.rpc.users.find_by_email', async ({ email }) => {
      const key = emailKey(email);
      const user = key === null ? null : await this.users.findByUsernameKey(key);
      return { user: user?.email ? toUserSnapshot(user) : null };
    });
    this.rpc.handle('auth.rpc.users.find_by_ids', async ({ userIds }) => {
      const users = await this.users.findByIds(userIds);
      return { users: users.map(toUserSnapshot) };
    });
  }
}
