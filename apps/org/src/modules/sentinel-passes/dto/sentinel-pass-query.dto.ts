import { ArrayMaxSize, IsBoolean, IsString, Matches, MaxLength } from 'class-validator';
import { MayBeAbsent, ToBoolean, ToList } from '@wp/http';
import { CREDENTIAL_TYPE, TAG } from './sentinel-pass-body.dto.js';

/**
 * Query of `GET S` and `GET /organizations/{id}/sentinel_passes` (docs/api.md § Sentinel Passes;
 * docs/org.md § Sentinel Pass): every value validated, 400 naming the parameter.
 */
export class SentinelPassListQueryDto {
  /** `true`/`false` (`1`/`0`): the pass's `active` attribute. */
  @MayBeAbsent()
  @ToBoolean()
  @IsBoolean({ message: 'must be true or false' })
  active?: boolean;

  @MayBeAbsent()
  @IsString()
  @Matches(CREDENTIAL_TYPE, { message: 'must be a lower-case identifier' })
  credential_type?: string;

  /** Case-insensitive substring of the title. */
  @MayBeAbsent()
  @IsString()
  @MaxLength(200)
  search?: string;

  /** Comma list: passes holding every one of these tags (exact, case-sensitive). */
  @MayBeAbsent()
  @ToList()
  @IsString({ each: true })
  @ArrayMaxSize(20)
  @Matches(TAG, { each: true, message: 'each tag must be 1–50 characters' })
  tags?: string[];
}
