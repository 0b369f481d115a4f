import { Module } from '@nestjs/common';
import { PasswordsModule } from '../passwords/passwords.module.js';
import { UsersRepository } from '../users/users.repository.js';
import { LoginService } from './login.service.js';
import { OAuthController } from './oauth.controller.js';
import { SessionsRepository } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';
import { TokenService } from './token.service.js';

@Module({
  imports: [PasswordsModule],
  controllers: [OAuthController],
  providers: [SessionsRepository, SessionsService, TokenService, LoginService, UsersRepository],
  exports: [SessionsService, TokenService],
})
export class SessionsModule {}
