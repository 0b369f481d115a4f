import { IsIn, Matches } from 'class-validator';
import { MayBeAbsent, ToList } from '@wp/http';
import { CLIENT_PATTERN } from '../user-settings.input.js';

export const USER_SETTINGS_INCLUDES = ['dashboard'] as const;

/** `client` of every user settings endpoint: default `web`, `^[a-z0-9_-]{1,32}$`. */
export class ClientQueryDto {
  @MayBeAbsent()
  @Matches(CLIENT_PATTERN, {
    message: 'must be 1 to 32 lower-case letters, digits, "_" or "-"',
  })
  client?: string;
}

/** Query of `GET /user_settings`: `client`, `includes` (comma list; only `dashboard`). */
export class UserSettingsQueryDto extends ClientQueryDto {
  @MayBeAbsent()
  @ToList()
  @IsIn(USER_SETTINGS_INCLUDES, {
    each: true,
    message: `each value must be one of ${USER_SETTINGS_INCLUDES.join(', ')}`,
  })
  includes?: (typeof USER_SETTINGS_INCLUDES)[number][];
}
