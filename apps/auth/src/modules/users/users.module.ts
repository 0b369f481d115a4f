import { Module } from '@nestjs/common';
import { PasswordsModule } from '../passwords/passwords.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { UsersController } from './users.controller.js';
import { UsersRepository } from './users.repository.js';
import { UsersRpc } from './users.rpc.js';
import { UsersService } from './users.service.js';

@Module({
  imports: [PasswordsModule, SessionsModule],
  controllers: [UsersController],
  providers: [UsersRepository, UsersService, UsersRpc],
  exports: [UsersRepository],
})
export class UsersModule {}
