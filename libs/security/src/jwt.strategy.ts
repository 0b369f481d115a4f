import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { selectVerificationKey } from './jwt-keys.js';
import { principalFromClaims, type AccessTokenClaims, type Principal } from './principal.js';
import { SECURITY_OPTIONS, type SecurityOptions } from './security.options.js';

/**
 * passport-jwt strategy: ES256 signatures checked with a `KeyObject` (never a PEM string: see
 * docs/architecture.md § Measured limits, jsonwebtoken re-parses string keys on every call), issuer
 * checked, `exp` enforced.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(@Inject(SECURITY_OPTIONS) options: SecurityOptions) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKeyProvider: (
        _request: unknown,
        rawJwtToken: string,
        done: (error: Error | null, key?: string) => void,
      ) => {
        const key = selectVerificationKey(rawJwtToken, options.jwtPublicKeys);
        // jsonwebtoken accepts a KeyObject; passport-jwt's typings predate it.
        if (key) done(null, key as unknown as string);
        else done(new Error('no verification key for this token'));
      },
      algorithms: ['ES256'],
      issuer: options.jwtIssuer,
      ignoreExpiration: false,
    });
  }

  validate(claims: AccessTokenClaims): Principal {
    return principalFromClaims(claims);
  }
}
