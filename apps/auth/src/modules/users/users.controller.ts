import { Body, Controller, Get, Ip, Post, Query, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CurrentRequestMeta, NoStore, Public, type RequestMeta } from '@wp/http';
import { CurrentClientApp } from '@wp/security';
import type { FastifyReply } from 'fastify';
import type { SessionResource } from '../sessions/session.serializer.js';
import { RegisterUserDto } from './dto/register-user.dto.js';
import { ValidateEmailQueryDto, ValidatePhoneQueryDto } from './dto/validate-query.dto.js';
import type { ActivationRequiredResource, ValidationResource } from './users.serializer.js';
import { UsersService } from './users.service.js';

/** Accounts on {auth_url} (docs/api.md § Accounts and sessions); header set K throughout. */
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  /**
   * `POST /users`: 200 with a session when no activation is needed, 201 with
   * `{user_id, status, message, activationRequired}` otherwise; 400 invalid input; 409
   * `USERNAME_TAKEN`; 429 `RATE_LIMITED`.
   */
  @Post()
  @NoStore()
  @Public()
  @ApiOperation({ summary: 'Register an account' })
  async register(
    @Body() dto: RegisterUserDto,
    @CurrentClientApp() appId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<SessionResource | ActivationRequiredResource> {
    const result = await this.users.register(dto, appId, meta);
    if (result.kind === 'session') {
      void reply.status(200);
      return result.session;
    }
    void reply.status(201);
    return result.body;
  }

  /** `GET /users/validate/email?email=`: 200 `{valid, exists}`; 400; 429 per address. */
  @Get('validate/email')
  @Public()
  @ApiOperation({ summary: 'Check an email address' })
  validateEmail(
    @Query() query: ValidateEmailQueryDto,
    @Ip() address: string,
  ): Promise<ValidationResource> {
    return this.users.validateEmail(query.email, address);
  }

  /** `GET /users/validate/phone?phoneNumber=&countryCode=`: 200 `{valid, exists}`; 400; 429. */
  @Get('validate/phone')
  @Public()
  @ApiOperation({ summary: 'Check a phone number' })
  validatePhone(
    @Query() query: ValidatePhoneQueryDto,
    @Ip() address: string,
  ): Promise<ValidationResource> {
    return this.users.validatePhone(query.phoneNumber, query.countryCode, address);
  }
}
