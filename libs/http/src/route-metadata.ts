import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'wp:isPublic';
export const NO_API_KEY = 'wp:noApiKey';

/**
 * The route needs no bearer token (docs/api.md § Endpoints, header set **K**): the Api-Key alone.
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

/**
 * The route needs neither Api-Key nor bearer token: infrastructure endpoints (health, metrics,
 * JWKS) and analytics, which authenticates with HTTP Basic instead.
 */
export const NoApiKey = (): MethodDecorator & ClassDecorator => SetMetadata(NO_API_KEY, true);
