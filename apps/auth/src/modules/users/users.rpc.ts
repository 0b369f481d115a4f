import { Injectable, type OnModuleInit } from '@nestjs/common';
import { RpcServer } from '@wp/messaging';
import { toUserSnapshot } from './user.snapshot.js';
import { UsersRepository } from './users.repository.js';
import { normalizeEmail } from './username.js';

/** Answers other services' authoritative user look-ups (contracts `RPC_CATALOG`). */
@Injectable()
export class UsersRpc implements OnModuleInit {
  constructor(
    private readonly rpc: RpcServer,
    private readonly users: UsersRepository,
  ) {}

  onModuleInit(): void {
    this.rpc.handle('auth.rpc.users.find_by_email', async ({ email }) => {
      const normalized = normalizeEmail(email);
      const user = normalized ? await this.users.findByEmail(normalized) : null;
      return { user: user ? toUserSnapshot(user) : null };
    });
    this.rpc.handle('auth.rpc.users.find_by_ids', async ({ userIds }) => {
      const users = await this.users.findByIds(userIds);
      return { users: users.map(toUserSnapshot) };
    });
  }
}
