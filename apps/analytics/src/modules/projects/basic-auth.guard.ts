import {
  createParamDecorator,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { DomainError } from '@wp/http';
import {
  DENY_LIST_WRITERS,
  projectKeysSessionId,
  projectKeyTokenId,
  RevocationList,
} from '@wp/security';
import { LangfuseApiError } from '../common/langfuse-errors.js';
import { ProjectKeyCache } from './project-key-cache.js';

/** How long a "not withdrawn" answer may be remembered at most, s (announcements end it sooner). */
const REMEMBER_SECONDS = 3600;

interface AuthedRequest {
  headers: Record<string, string | string[] | undefined>;
  analyticsProjectId?: number;
}

/**
 * HTTP Basic authentication with a project key pair (docs/api.md § Authentication 7): user name the
 * public key, password the secret key, checked against the in-memory key cache. Missing,
 * malformed, unknown, wrong, expired or deleted pairs → 401 in Langfuse's shape, with Langfuse's
 * messages; so are pairs org has withdrawn but this copy still holds (the deny-list). On
 * success the project id is on the request (`@AuthedProject()`).
 */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(
    private readonly keys: ProjectKeyCache,
    private readonly revocations: RevocationList,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    const credentials = parseBasic(request.headers['authorization']);
    if (credentials === 'missing') throw LangfuseApiError.unauthorized('No authorization header');
    if (credentials === 'malformed') {
      throw LangfuseApiError.unauthorized('Invalid authorization header');
    }
    const projectId = this.keys.verify(credentials.publicKey, credentials.secretKey);
    if (projectId === null) throw LangfuseApiError.unauthorized('Invalid credentials');
    if (await this.withdrawn(credentials.publicKey, projectId)) {
      throw LangfuseApiError.unauthorized('Invalid credentials');
    }
    request.analyticsProjectId = projectId;
    return true;
  }

  /**
   * Whether org has withdrawn the pair (deleted, or its project deleted) although this copy of
   * the keys has not caught up yet (docs/architecture.md § Withdrawn permissions at once): the
   * deny-list, whose "no" answers the `RevocationList` remembers (no store round trip per
   * request while its announcements flow).
   * @throws DomainError 503 `UNAVAILABLE` (with `Retry-After`) when the deny-list cannot be read
   */
  private async withdrawn(publicKey: string, projectId: number): Promise<boolean> {
    try {
      return await this.revocations.isRevoked(
        projectKeyTokenId(publicKey),
        projectKeysSessionId(projectId),
        Math.floor(Date.now() / 1000) + REMEMBER_SECONDS,
        DENY_LIST_WRITERS.projectKey,
      );
    } catch (error) {
      throw new DomainError('unavailable', 'UNAVAILABLE', 'Service unavailable', {
        detail: `The key pair could not be checked (${(error as Error).message}). Retry shortly.`,
        retryAfter: 1,
      });
    }
  }
}

/** `Basic base64(publicKey:secretKey)` → the pair; the secret may contain `:`. */
export function parseBasic(
  header: string | string[] | undefined,
): { publicKey: string; secretKey: string } | 'missing' | 'malformed' {
  if (header === undefined || header === '') return 'missing';
  if (typeof header !== 'string') return 'malformed';
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return 'malformed';
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return 'malformed';
  return { publicKey: decoded.slice(0, colon), secretKey: decoded.slice(colon + 1) };
}

/** The project authenticated by {@link BasicAuthGuard}. */
export const AuthedProject = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const projectId = ctx.switchToHttp().getRequest<AuthedRequest>().analyticsProjectId;
  if (projectId === undefined) throw new Error('BasicAuthGuard did not run on this route');
  return projectId;
});
