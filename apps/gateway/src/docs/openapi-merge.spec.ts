import { loadConfig } from '@wp/config';
import { gatewayConfigSchema } from '../config/gateway.config.js';
import { proxyRoutes } from '../proxy/routes.js';
import { mergeOpenApiDocuments, type OpenApiDocument } from './openapi-merge.js';

const doc = (paths: OpenApiDocument['paths'], schemas = {}): OpenApiDocument => ({
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths,
  components: { schemas },
});

describe('mergeOpenApiDocuments', () => {
  const routes = proxyRoutes(loadConfig(gatewayConfigSchema, {}));

  it('keeps only the paths the gateway routes to that service and tags them by contract area', () => {
    const merged = mergeOpenApiDocuments(
      {
        auth: doc({
          '/v1/api/oauth/token': { post: { operationId: 'login' } },
          '/health/live': { get: {} },
          '/v1/api/organizations': { get: {} }, // not auth's prefix: dropped
        }),
        org: doc(
          { '/v1/api/organizations': { get: { tags: ['orgs'] }, parameters: [] } },
          {
            Org: { type: 'object' },
          },
        ),
      },
      routes,
      ['wallet'],
    );
    expect(Object.keys(merged.paths)).toEqual(['/v1/api/oauth/token', '/v1/api/organizations']);
    expect(merged.paths['/v1/api/oauth/token']?.['post']).toEqual({
      operationId: 'login',
      tags: ['Accounts and sessions'],
      'x-contract-section': 'Accounts and sessions',
      'x-service': 'auth',
    });
    expect(merged.paths['/v1/api/organizations']?.['get']).toEqual({
      tags: ['Organizations'],
      'x-contract-section': 'Organizations',
      'x-service': 'org',
    });
    expect(merged.openapi).toBe('3.1.0');
    expect(merged.tags).toEqual([
      {
        name: 'Organizations',
        description: 'Organizations, their members, invitations, audit log and security policy.',
        'x-contract-section': 'Organizations',
      },
      {
        name: 'Accounts and sessions',
        description: 'Registration, activation, login, tokens, passwords, two-factor and sessions.',
        'x-contract-section': 'Accounts and sessions',
      },
      expect.objectContaining({ name: 'Webhooks' }),
    ]);
    expect(merged.paths['/v1/api/organizations']?.['parameters']).toEqual([]);
    // Schemas nothing refers to are left out (`Org`); the webhook bodies are referred to.
    expect(merged.components?.schemas).not.toHaveProperty('Org');
    expect(merged.components?.schemas).toHaveProperty('MemberAddedEvent');
    expect(merged['webhooks']).toHaveProperty(['member.added', 'post', 'requestBody']);
    expect(merged.info['x-unavailable-services']).toEqual(['wallet']);
    expect(merged.components?.['securitySchemes']).toHaveProperty('apiKey.name', 'Api-Key');
    expect(merged.components?.['securitySchemes']).toHaveProperty('basic.scheme', 'basic');
  });

  it('does not take a prefix match inside a segment', () => {
    const merged = mergeOpenApiDocuments(
      { wallet: doc({ '/v1/api/wallets_admin': { get: {} }, '/v1/api/wallets/{a}': { get: {} } }) },
      routes,
      [],
    );
    expect(Object.keys(merged.paths)).toEqual(['/v1/api/wallets/{a}']);
    expect(merged.info).not.toHaveProperty('x-unavailable-services');
  });
});
