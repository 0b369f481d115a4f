import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { MayBeAbsent, MayBeNull } from '@wp/http';

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const MAX_B64 = 16_384;

/** The fields every `PublicKeyCredential.toJSON()` has (W3C WebAuthn § 5.1 JSON serialization). */
class CredentialBase {
  @ApiProperty({ description: 'Credential id, base64url.' })
  @IsString()
  @Matches(BASE64URL)
  @MaxLength(1366)
  id!: string;

  @ApiProperty({ description: 'The same id, base64url.' })
  @IsString()
  @Matches(BASE64URL)
  @MaxLength(1366)
  rawId!: string;

  @ApiProperty({ enum: ['public-key'] })
  @IsIn(['public-key'])
  type!: 'public-key';

  @ApiPropertyOptional({ type: Object, description: 'Client extension results.' })
  @MayBeAbsent()
  @IsObject()
  clientExtensionResults!: Record<string, unknown>;

  @ApiPropertyOptional({ enum: ['platform', 'cross-platform'] })
  @MayBeAbsent()
  @IsIn(['platform', 'cross-platform'])
  authenticatorAttachment?: 'platform' | 'cross-platform';
}

/** `clientDataJSON` (W3C WebAuthn § 5.8.1), which both ceremonies' responses carry. */
class ClientDataResponseDto {
  @ApiProperty({ description: 'base64url' })
  @IsString()
  @Matches(BASE64URL)
  @MaxLength(MAX_B64)
  clientDataJSON!: string;
}

class AttestationResponseDto extends ClientDataResponseDto {
  @ApiProperty({ description: 'base64url' })
  @IsString()
  @Matches(BASE64URL)
  @MaxLength(MAX_B64)
  attestationObject!: string;

  @ApiPropertyOptional({ type: [String] })
  @MayBeAbsent()
  @IsString({ each: true })
  @MaxLength(32, { each: true })
  transports?: string[];
}

class AssertionResponseDto extends ClientDataResponseDto {
  @ApiProperty({ description: 'base64url' })
  @IsString()
  @Matches(BASE64URL)
  @MaxLength(MAX_B64)
  authenticatorData!: string;

  @ApiProperty({ description: 'base64url' })
  @IsString()
  @Matches(BASE64URL)
  @MaxLength(MAX_B64)
  signature!: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'base64url' })
  @MayBeNull()
  @IsString()
  @Matches(BASE64URL)
  @MaxLength(128)
  userHandle?: string | null;
}

/** `navigator.credentials.create()`'s credential, as `PublicKeyCredential.toJSON()` gives it. */
export class RegistrationCredentialDto extends CredentialBase {
  @ApiProperty({ type: () => AttestationResponseDto })
  @IsObject()
  @ValidateNested()
  @Type(() => AttestationResponseDto)
  response!: AttestationResponseDto;
}

/** `navigator.credentials.get()`'s credential, as `PublicKeyCredential.toJSON()` gives it. */
export class AuthenticationCredentialDto extends CredentialBase {
  @ApiProperty({ type: () => AssertionResponseDto })
  @IsObject()
  @ValidateNested()
  @Type(() => AssertionResponseDto)
  response!: AssertionResponseDto;
}

/** `POST /users/me/passkeys`. */
export class RegisterPasskeyDto {
  @ApiProperty({ type: () => RegistrationCredentialDto })
  @IsObject()
  @ValidateNested()
  @Type(() => RegistrationCredentialDto)
  credential!: RegistrationCredentialDto;

  @ApiPropertyOptional({ description: 'A name for the list (default "Passkey").', maxLength: 100 })
  @MayBeAbsent()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name?: string;
}

/** `PATCH /users/me/passkeys/{id}`. */
export class RenamePasskeyDto {
  @ApiProperty({ maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;
}

/** `POST /oauth/token/passkey`. */
export class PasskeyTokenRequestDto {
  @ApiProperty({ type: () => AuthenticationCredentialDto })
  @IsObject()
  @ValidateNested()
  @Type(() => AuthenticationCredentialDto)
  credential!: AuthenticationCredentialDto;
}
