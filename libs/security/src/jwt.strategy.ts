import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
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
      // jsonwebtoken accepts a KeyObject; passport-jwt's typings predate it.
      secretOrKey: options.jwtPublicKey as unknown as string,
      algorithms: ['ES256'],
      issuer: options.jwtIssuer,
      ignoreExpiration: false,
    });
  }

  validate(claims: AccessTokenClaims): Principal {
    return principalFromClaims(claims);
  }
}
