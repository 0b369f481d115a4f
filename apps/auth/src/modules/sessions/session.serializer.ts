import { ApiProperty } from '@nestjs/swagger';
import type { User } from '../accounts/user.entity.js';

/**
 * The session resource (docs/api.md § Session): `data.id` user id, `data.type` `session`,
 * `attributes.accessToken`, `refreshToken`, `email`, `firstName`, `lastName` (strings, `""`
 * when unknown), plus `tokenType` and `expiresIn` (seconds) as OAuth clients expect.
 */
export interface SessionResource {
  data: {
    id: string;
    type: 'session';
    attributes: {
      accessToken: string;
      refreshToken: string;
      tokenType: 'Bearer';
      expiresIn: number;
      email: string;
      firstName: string;
      lastName: string;
    };
  };
}

export function toSessionResource(
  user: Pick<User, 'id' | 'email' | 'phone' | 'firstName' | 'lastName'>,
  tokens: { accessToken: string; refreshToken: string; expiresIn: number },
): SessionResource {
  return {
    data: {
      id: user.id,
      type: 'session',
      attributes: {
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        tokenType: 'Bearer',
        expiresIn: tokens.expiresIn,
        email: user.email ?? '',
        firstName: user.firstName ?? '',
        lastName: user.lastName ?? '',
      },
    },
  };
}

/** {@link SessionResource} as a class, for the OpenAPI document. */
export class SessionAttributes {
  @ApiProperty() accessToken!: string;
  @ApiProperty() refreshToken!: string;
  @ApiProperty({ enum: ['Bearer'] }) tokenType!: 'Bearer';
  @ApiProperty({ description: 'Access token lifetime, seconds.' }) expiresIn!: number;
  @ApiProperty() email!: string;
  @ApiProperty() firstName!: string;
  @ApiProperty() lastName!: string;
}

export class SessionData {
  @ApiProperty({ description: 'The user id.' }) id!: string;
  @ApiProperty({ enum: ['session'] }) type!: 'session';
  @ApiProperty({ type: () => SessionAttributes }) attributes!: SessionAttributes;
}

export class SessionResponse implements SessionResource {
  @ApiProperty({ type: () => SessionData }) data!: SessionData;
}
