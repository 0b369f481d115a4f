import { redactQuery, redactUrl, withoutQuery } from './redact-url.js';

describe('redactUrl (docs/operations.md § Logs and traces)', () => {
  it('replaces the values of credential-like parameters, whatever their case or separator', () => {
    expect(
      redactUrl(
        '/v1/api/organizations?Api-Key=wpk_live_1&access_token=eyJ.a.b&token=t0k&page=2&API_KEY=x',
      ),
    ).toBe(
      '/v1/api/organizations?Api-Key=[redacted]&access_token=[redacted]&token=[redacted]&page=2&API_KEY=[redacted]',
    );
    expect(redactUrl('http://h:1/x?refresh_token=r&client_secret=s&code=123456&sig=abc')).toBe(
      'http://h:1/x?refresh_token=[redacted]&client_secret=[redacted]&code=[redacted]&sig=[redacted]',
    );
    expect(redactUrl('/x?Api%2DKey=k&api%5Fkey=k2')).toBe(
      '/x?Api%2DKey=[redacted]&api%5Fkey=[redacted]',
    );
  });

  it('keeps everything else exactly as sent', () => {
    for (const url of [
      '/v1/api/organizations',
      '/v1/api/wallets?entity_type=organization&cache_bust=1',
      '/x?tokens=not-a-credential&keyword=k&%zz=1&&a',
      '/x?',
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
    expect(redactQuery('a=1&token')).toBe('a=1&token');
  });

  it('drops the query from the text of an unknown route', () => {
    expect(withoutQuery('Cannot GET /v1/api/x?token=abc&Api-Key=k')).toBe('Cannot GET /v1/api/x');
    expect(withoutQuery('Organization not found')).toBe('Organization not found');
  });
});
