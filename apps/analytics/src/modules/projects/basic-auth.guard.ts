import {
  createParamDecorator,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { LangfuseApiError } from '../common/langfuse-errors.js';
import { ProjectKeyCache } from './project-key-cache.js';

interface AuthedRequest {
  headers: Record<string, string | string[] | undefined>;
  analyticsProjectId?: number;
}

/**
 * HTTP Basic authentication with a project key pair (docs/api.md § Authentication 7): user name the
 * public key, password the secret key, checked against the in-memory key cache. Missing,
 * malformed, unknown, wrong, expired or deleted pairs → 401 in Langfuse's shape, with Langfuse's
 * messages. On success the project id is on the request (`@AuthedProject()`).
 */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(private readonly keys: ProjectKeyCache) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    const credentials = parseBasic(request.headers['authorization']);
    if (credentials === 'missing') throw LangfuseApiError.unauthorized('No authorization header');
    if (credentials === 'malformed') {
      throw LangfuseApiError.unauthorized('Invalid authorization header');
    }
    const projectId = this.keys.verify(credentials.publicKey, credentials.secretKey);
    if (projectId === null) throw LangfuseApiError.unauthorized('Invalid credentials');
    request.analyticsProjectId = projectId;
    return true;
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
