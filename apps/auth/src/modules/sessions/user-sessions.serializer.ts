import { ApiProperty } from '@nestjs/swagger';
import type { ActiveSessionRow } from './sessions.repository.js';

export class SessionClientApplication {
  @ApiProperty({ description: 'Client application (Api-Key) id.' })
  id!: string;

  @ApiProperty({ type: String, nullable: true, description: 'Its name (null if deleted).' })
  name!: string | null;
}

/** Attributes of one active session (a refresh token family) in the sessions list. */
export class UserSessionAttributes {
  @ApiProperty({ description: 'Login time (ISO 8601).' })
  createdAt!: string;

  @ApiProperty({
    description: 'Last login or refresh (ISO 8601); access token use is not tracked.',
  })
  lastUsedAt!: string;

  @ApiProperty({ description: 'When the session ends at the latest (ISO 8601).' })
  expiresAt!: string;

  @ApiProperty({ type: () => SessionClientApplication })
  clientApplication!: SessionClientApplication;

  @ApiProperty({ type: String, nullable: true, description: '`User-Agent` of the last use.' })
  userAgent!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Client address of the last use.' })
  clientAddress!: string | null;

  @ApiProperty({ description: 'The session of the access token making this request.' })
  current!: boolean;
}

export class UserSessionData {
  @ApiProperty({ enum: ['session'] })
  type!: 'session';

  @ApiProperty({ description: 'Session id: the `sid` claim of its access tokens.' })
  id!: string;

  @ApiProperty({ type: () => UserSessionAttributes })
  attributes!: UserSessionAttributes;
}

/** `GET /users/me/sessions`: the live sessions, most recently used first. */
export class UserSessionListResource {
  @ApiProperty({ type: () => [UserSessionData] })
  data!: UserSessionData[];
}

/** `DELETE /users/me/sessions`: how many other sessions were ended. */
export class SessionsEndedResource {
  @ApiProperty({ description: 'Sessions ended (the current one is kept).' })
  sessionsEnded!: number;
}

export function toUserSessionData(row: ActiveSessionRow, currentId: string): UserSessionData {
  return {
    type: 'session',
    id: row.id,
    attributes: {
      createdAt: row.createdAt.toISOString(),
      lastUsedAt: row.lastUsedAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      clientApplication: { id: row.appId, name: row.appName },
      userAgent: row.userAgent,
      clientAddress: row.clientAddress,
      current: row.id === currentId,
    },
  };
}
