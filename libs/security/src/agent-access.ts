import { SetMetadata } from '@nestjs/common';
import { ForbiddenError, NotFoundError, type DomainError } from '@wp/http';
import type { Principal } from './principal.js';

export const AGENT_ACCESS = 'wp:agentAccess';

/**
 * Opens a route to Sentinel Pass agent tokens (docs/auth.md § Agent tokens in the other services).
 * In a service that confines agents (`SecurityOptions.confineAgents`: org, wallet) every other
 * route answers an agent 403 `AGENT_FORBIDDEN` (404 when its path names another organization or
 * project). An opted-in route must still authorize the agent through its service's permission check
 * (org: `AccessService.projectWith(…, permission)`; wallet: `walletAllows`), which asks
 * `agentCan(prm, permission)` of `@wp/contracts`: the decorator only lets the request reach it.
 */
export const AgentAccess = (): MethodDecorator & ClassDecorator => SetMetadata(AGENT_ACCESS, true);

/** 403 `AGENT_FORBIDDEN`: an agent token asked for something its pass does not grant. */
export class AgentForbiddenError extends ForbiddenError {
  constructor(detail = 'This Sentinel Pass does not grant access to this endpoint.') {
    super(detail, 'AGENT_FORBIDDEN');
  }
}

/** The project an agent principal is confined to, or null for a token without those claims. */
export type AgentScope = NonNullable<Principal['agent']>;

const ORGANIZATION_PARAMS = ['organizationId', 'orgId'] as const;
const PROJECT_PARAMS = ['projectId'] as const;

/**
 * Why an agent may not go further on a route, decided from the token and the route's path
 * parameters alone (no I/O, so no existence leak): 404 `NOT_FOUND` when the path names another
 * organization or project (exactly the body a missing one gets), else 403 `AGENT_FORBIDDEN`
 * when the route is not opted in with {@link AgentAccess} or the token carries no project;
 * null when the route may handle the request.
 */
export function agentRouteRefusal(
  principal: Principal,
  params: Record<string, string | undefined> | undefined,
  optedIn: boolean,
): DomainError | null {
  const scope = principal.agent;
  if (!scope) return new AgentForbiddenError('This agent token is not bound to a project.');
  for (const name of ORGANIZATION_PARAMS) {
    const value = params?.[name];
    if (value !== undefined && value !== String(scope.organizationId)) {
      return new NotFoundError('Organization');
    }
  }
  for (const name of PROJECT_PARAMS) {
    const value = params?.[name];
    if (value !== undefined && value !== String(scope.projectId)) {
      return new NotFoundError('Project');
    }
  }
  return optedIn ? null : new AgentForbiddenError();
}
