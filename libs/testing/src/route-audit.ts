import type { INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'ALL', 'OPTIONS', 'HEAD', 'SEARCH'];

export interface RouteAccess {
  /** `GET /users/validate/email` (controller path + method path, without the global prefix). */
  route: string;
  /** No bearer token needed (`@Public()`). */
  isPublic: boolean;
  /** Neither Api-Key nor bearer token (`@NoApiKey()`). */
  noApiKey: boolean;
  /** Opened to Sentinel Pass agent tokens (`@AgentAccess()`), when `keys.agentAccess` is given. */
  agentAccess: boolean;
}

/**
 * Every route of an application with what it requires, read from the same metadata the global
 * guards read (docs/decisions.md § Development: every route is guarded or explicitly public).
 */
export function auditRoutes(
  app: INestApplication,
  keys: { isPublic: string; noApiKey: string; agentAccess?: string },
): RouteAccess[] {
  const out: RouteAccess[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!controller) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || name === 'constructor') continue;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as number | undefined;
        if (path === undefined || method === undefined) continue;
        const flag = (key: string) =>
          Reflect.getMetadata(key, handler) === true ||
          Reflect.getMetadata(key, controller) === true;
        const full = `/${[base, path]
          .map((p) => p.replace(/^\/|\/$/g, ''))
          .filter(Boolean)
          .join('/')}`;
        out.push({
          route: `${METHODS[method] ?? method} ${full}`,
          isPublic: flag(keys.isPublic),
          noApiKey: flag(keys.noApiKey),
          agentAccess: keys.agentAccess !== undefined && flag(keys.agentAccess),
        });
      }
    }
  }
  return out.sort((a, b) => a.route.localeCompare(b.route));
}
