import { Body, Controller, Post, Res } from '@nestjs/common';
import { Public } from '@wp/http';
import { CurrentClientApp } from '@wp/security';
import type { FastifyReply } from 'fastify';
import { RegisterUserDto } from './dto/register-user.dto.js';
import { UsersService } from './users.service.js';

@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  /**
   * `POST /users` (header set K): 200 with a session when no activation is needed, 201 with
   * `{user_id, status, message, activationRequired}` otherwise; 400 invalid input; 409 taken.
   */
  @Post()
  @Public()
  async register(
    @Body() dto: RegisterUserDto,
    @CurrentClientApp() appId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const result = await this.users.register(dto, appId);
    if (result.kind === 'session') {
      void reply.status(200);
      return result.session;
    }
    void reply.status(201);
    return result.body;
  }
}
