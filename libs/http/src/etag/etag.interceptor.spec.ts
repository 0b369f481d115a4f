import { Controller, Get, Header, Module, NotFoundException, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { WithETag } from './etag.interceptor.js';

let version = 1;

@Controller('things')
class ThingsController {
  @Get()
  list() {
    return { data: [{ type: 'thing', id: '1', attributes: { version } }] };
  }

  @Get(':id')
  @WithETag()
  get(@Param('id') id: string) {
    if (id !== '1') throw new NotFoundException();
    return { data: { type: 'thing', id, attributes: { version } } };
  }

  @Get(':id/private')
  @WithETag()
  @Header('cache-control', 'no-store')
  secret() {
    return { data: { type: 'thing', id: '1', meta: { secret: 'x' } } };
  }

  @Post(':id')
  @WithETag()
  touch() {
    version++;
    return { data: { type: 'thing', id: '1', attributes: { version } } };
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

/** ETagInterceptor in a real Nest application on Fastify (no database needed). */
describe('ETagInterceptor', () => {
  let app: NestFastifyApplication;
  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    app.inject({ method, url, headers });

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(ThingsModule, new FastifyAdapter(), {
      logger: false,
    });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });
  afterAll(() => app.close());

  it('tags a 200 GET with a weak ETag of its body', async () => {
    const res = await get('/things/1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['etag']).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual({ data: { type: 'thing', id: '1', attributes: { version } } });
    expect((await get('/things/1')).headers['etag']).toBe(res.headers['etag']);
  });

  it('answers 304 with the ETag and no body when If-None-Match matches (weakly, or *)', async () => {
    const etag = (await get('/things/1')).headers['etag'] as string;
    for (const header of [etag, etag.slice(2), `"nope", ${etag}`, '*']) {
      const res = await get('/things/1', { 'if-none-match': header });
      expect(res.statusCode).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers['etag']).toBe(etag);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers['content-length']).toBeUndefined();
    }
  });

  it('answers 200 with the body when If-None-Match does not match', async () => {
    const res = await get('/things/1', { 'if-none-match': 'W/"stale"' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.id).toBe('1');
  });

  it('changes the ETag when the representation changes; the old one then gives 200', async () => {
    const before = (await get('/things/1')).headers['etag'] as string;
    expect(
      (await app.inject({ method: 'POST', url: '/things/1' })).headers['etag'],
    ).toBeUndefined();
    const res = await get('/things/1', { 'if-none-match': before });
    expect(res.statusCode).toBe(200);
    expect(res.headers['etag']).not.toBe(before);
  });

  it('serves HEAD with the same ETag and 304 semantics', async () => {
    const etag = (await get('/things/1')).headers['etag'] as string;
    const head = await get('/things/1', {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['etag']).toBe(etag);
    expect(head.body).toBe('');
    const conditional = await get('/things/1', { 'if-none-match': etag }, 'HEAD');
    expect(conditional.statusCode).toBe(304);
    expect(conditional.headers['etag']).toBe(etag);
  });

  it("keeps a handler's own Cache-Control", async () => {
    const res = await get('/things/1/private');
    expect(res.headers['etag']).toMatch(/^W\//);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('leaves errors and routes without the decorator alone', async () => {
    const missing = await get('/things/2', { 'if-none-match': '*' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['etag']).toBeUndefined();
    const list = await get('/things', { 'if-none-match': '*' });
    expect(list.statusCode).toBe(200);
    expect(list.headers['etag']).toBeUndefined();
    expect(list.headers['cache-control']).toBeUndefined();
  });
});
