import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { HEADERS } from '@wp/contracts';
import { DomainError } from '@wp/http';
import { SECURITY_OPTIONS, type SecurityOptions } from './security.options.js';

/**
 * docs/api.md § Authentication 8: wallet credits require `Admin-Access: <ADMIN_ACCESS_TOKEN>`
 * besides the usual headers. Tokens come from `ADMIN_ACCESS_TOKENS` and are compared in constant
 * time (digests of equal length). Missing or wrong → 403 `ADMIN_ACCESS_REQUIRED`.
 */
@Injectable()
export class AdminAccessGuard implements CanActivate {
  private readonly digests: Buffer[];

  constructor(@Inject(SECURITY_OPTIONS) options: SecurityOptions) {
    this.digests = options.adminAccessTokens.map(digest);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>();
    const value = request.headers[HEADERS.adminAccess];
    if (typeof value === 'string' && value.length > 0) {
      const candidate = digest(value);
      let ok = false;
      for (const d of this.digests) ok = timingSafeEqual(d, candidate) || ok;
      if (ok) return true;
    }
    throw new DomainError('forbidden', 'ADMIN_ACCESS_REQUIRED', 'Forbidden', {
      detail: 'A valid Admin-Access header is required for this operation.',
      source: { header: 'Admin-Access' },
    });
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
