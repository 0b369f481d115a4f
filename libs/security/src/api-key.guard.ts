import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { HEADERS } from '@wp/contracts';
import { DomainError, NO_API_KEY } from '@wp/http';
import { ApiKeyRegistry } from './api-key.registry.js';
import { SECURITY_OPTIONS, type SecurityOptions } from './security.options.js';

export const API_KEY_OPTIONAL = 'wp:apiKeyOptional';

/**
 * docs/api.md § Authentication 1: every request carries `Api-Key`, identifying the client
 * application. Missing → 403 `API_KEY_MISSING`; unknown → 403 `API_KEY_INVALID` (JSON:API body).
 * Routes marked `@NoApiKey()` skip the check; with `requireApiKey` false (analytics), a key is
 * optional but must be valid when sent.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly registry: ApiKeyRegistry,
    @Inject(SECURITY_OPTIONS) private readonly options: SecurityOptions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(NO_API_KEY, targets)) return true;
    const request = context.switchToHttp().getRequest<{
      headers: Record<string, string | string[] | undefined>;
      clientAppId?: string;
    }>();
    const header = request.headers[HEADERS.apiKey];
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || key === '') {
      const optional =
        this.options.requireApiKey === false ||
        this.reflector.getAllAndOverride<boolean>(API_KEY_OPTIONAL, targets);
      if (optional) return true;
      throw new DomainError('forbidden', 'API_KEY_MISSING', 'Forbidden', {
        detail: 'The Api-Key header is required.',
        source: { header: 'Api-Key' },
      });
    }
    const appId = await this.registry.resolve(key);
    if (appId === null) {
      throw new DomainError('forbidden', 'API_KEY_INVALID', 'Forbidden', {
        detail: 'The Api-Key is not valid.',
        source: { header: 'Api-Key' },
      });
    }
    request.clientAppId = appId;
    return true;
  }
}
