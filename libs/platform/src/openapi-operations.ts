import type { INestApplicationContext } from '@nestjs/common';
import {
  GUARDS_METADATA,
  INTERCEPTORS_METADATA,
  METHOD_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { ETagInterceptor, IS_PUBLIC, NO_API_KEY } from '@wp/http';
import { AdminAccessGuard, API_KEY_OPTIONAL } from '@wp/security';

/** How a route authenticates its caller (docs/api.md § Authentication). */
export type RouteAuthentication = 'basic' | 'api-key' | 'api-key+bearer' | 'none';

/** What the code says about one route, read from its decorators and guards. */
export interface RouteFacts {
  /** `${Controller}_${method}`, the operationId @nestjs/swagger gives the route. */
  operationId: string;
  authentication: RouteAuthentication;
  /** `@ApiKeyOptional()`: the Api-Key is checked only when sent. */
  apiKeyOptional: boolean;
  /** `@UseGuards(AdminAccessGuard)`: `Admin-Access` besides the usual headers. */
  adminAccess: boolean;
  /** Reads `If-None-Match` (itself or with `@WithETag()`) and may answer 304. */
  conditional: boolean;
  /** The DTO class of its whole `@Query()`, whose validation rules the parameters state. */
  queryType?: abstract new (...args: never[]) => object;
  /** The DTO class of its whole `@Body()`, whose validation rules its schema states. */
  bodyType?: abstract new (...args: never[]) => object;
  /** The schema of each path parameter whose pipe states one (`static openApiSchema`). */
  pathSchemas: Record<string, Record<string, unknown>>;
}

/** Guard or interceptor classes of the route and its controller, by name. */
function enhancerNames(key: string, controller: object, handler: object): string[] {
  const guards = [
    ...((Reflect.getMetadata(key, controller) as unknown[]) ?? []),
    ...((Reflect.getMetadata(key, handler) as unknown[]) ?? []),
  ];
  return guards.map((g) => (typeof g === 'function' ? g.name : (g?.constructor?.name ?? '')));
}

function flag(key: string, controller: object, handler: object): boolean {
  return Boolean(Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller));
}

/**
 * The facts of every route of `app`'s controllers. `globalGuards`: whether the app runs
 * @wp/security's global Api-Key and Bearer guards (every service but analytics).
 */
export function collectRouteFacts(
  app: INestApplicationContext,
  globalGuards: boolean,
): RouteFacts[] {
  const facts: RouteFacts[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | undefined;
      if (!controller) continue;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || name === 'constructor') continue;
        if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const guards = enhancerNames(GUARDS_METADATA, controller, handler);
        const interceptors = enhancerNames(INTERCEPTORS_METADATA, controller, handler);
        const argsByKey =
          (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) as Record<
            string,
            { index: number; data?: unknown; pipes?: unknown[] }
          >) ?? {};
        const args = Object.values(argsByKey);
        const parameterTypes =
          (Reflect.getMetadata(
            'design:paramtypes',
            controller.prototype as object,
            name,
          ) as unknown[]) ?? [];
        // `${RouteParamtypes.QUERY}:${index}`: the whole query (no `data`) as a DTO.
        const query = Object.entries(argsByKey).find(
          ([key, arg]) => key.startsWith('4:') && arg.data === undefined,
        )?.[1];
        const queryType = query ? parameterTypes[query.index] : undefined;
        // `${RouteParamtypes.BODY}:${index}`: the whole body as a DTO (a class of its own even
        // when its rules are all inherited, as `PartialType(…)` subclasses are).
        const body = Object.entries(argsByKey).find(
          ([key, arg]) => key.startsWith('3:') && arg.data === undefined,
        )?.[1];
        const bodyType = body ? parameterTypes[body.index] : undefined;
        const pathSchemas: RouteFacts['pathSchemas'] = {};
        for (const [key, arg] of Object.entries(argsByKey)) {
          if (!key.startsWith('5:') || typeof arg.data !== 'string') continue;
          for (const pipe of arg.pipes ?? []) {
            const type = (typeof pipe === 'function' ? pipe : pipe?.constructor) as
              { openApiSchema?: Record<string, unknown> } | undefined;
            if (type?.openApiSchema) pathSchemas[arg.data] = type.openApiSchema;
          }
        }
        let authentication: RouteAuthentication = 'none';
        if (guards.includes('BasicAuthGuard')) authentication = 'basic';
        else if (globalGuards && !flag(NO_API_KEY, controller, handler)) {
          authentication = flag(IS_PUBLIC, controller, handler) ? 'api-key' : 'api-key+bearer';
        }
        facts.push({
          operationId: `${controller.name}_${name}`,
          authentication,
          apiKeyOptional: flag(API_KEY_OPTIONAL, controller, handler),
          adminAccess: guards.includes(AdminAccessGuard.name),
          conditional:
            args.some((a) => a.data === 'if-none-match') ||
            interceptors.includes(ETagInterceptor.name),
          pathSchemas,
          ...(typeof queryType === 'function' && queryType !== Object
            ? { queryType: queryType as RouteFacts['queryType'] }
            : {}),
          ...(typeof bodyType === 'function' && bodyType !== Object
            ? { bodyType: bodyType as RouteFacts['bodyType'] }
            : {}),
        });
      }
    }
  }
  return facts;
}

/** The security requirement of a route (OpenAPI `security`; schemes in the merged document). */
export function securityOf(facts: RouteFacts | undefined): Record<string, string[]>[] {
  if (!facts || facts.authentication === 'none') return [];
  if (facts.authentication === 'basic') return [{ basic: [] }];
  const base: Record<string, string[]> = { apiKey: [] };
  if (facts.authentication === 'api-key+bearer') base.bearer = [];
  if (facts.adminAccess) base.adminAccess = [];
  if (!facts.apiKeyOptional) return [base];
  const { apiKey: _apiKey, ...withoutKey } = base;
  return [base, withoutKey];
}
