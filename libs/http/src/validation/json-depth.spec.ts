import { Readable } from 'node:stream';
import { ValidationFailedError } from '../errors/validation-error.js';
import { JsonDepthLimit, JsonDepthScanner, jsonDepthExceeds } from './json-depth.js';

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('JSON nesting limit (docs/decisions.md § Wire format)', () => {
  it('counts objects and arrays, and allows exactly the limit', () => {
    expect(jsonDepthExceeds(nested(64), 64)).toBe(false);
    expect(jsonDepthExceeds(nested(65), 64)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":[{"c":1}]}}', 4)).toBe(false);
    expect(jsonDepthExceeds('{"a":{"b":[{"c":1}]}}', 3)).toBe(true);
    expect(jsonDepthExceeds('[[1],[2],[3],[4]]', 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepthExceeds(JSON.stringify({ a: '[[[[[[{{{{' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ a: 'say \\"[[[[" ok' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ a: '\\' }) + '[[', 2)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ a: '\\' }) + '[[', 1)).toBe(true);
  });

  it('keeps its state across chunks split anywhere, UTF-8 included', () => {
    const text = JSON.stringify({ name: 'é[ü"{', deep: JSON.parse(nested(10)) });
    const bytes = Buffer.from(text);
    for (const size of [1, 2, 3, 7]) {
      const scanner = new JsonDepthScanner(11);
      const over = new JsonDepthScanner(10);
      let ok = true;
      let overOk = true;
      for (let i = 0; i < bytes.length; i += size) {
        ok &&= scanner.feed(bytes.subarray(i, i + size));
        overOk &&= over.feed(bytes.subarray(i, i + size));
      }
      expect([ok, overOk]).toEqual([true, false]);
    }
  });

  it('scans 100,000 levels without recursion, in linear time', () => {
    const started = performance.now();
    expect(jsonDepthExceeds(nested(100_000), 64)).toBe(true);
    expect(jsonDepthExceeds('[1,'.repeat(300_000) + '1' + ']'.repeat(300_000), 64)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('as a stream: passes bytes through unchanged, fails with a 400 past the limit', async () => {
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) =>
      Readable.from([Buffer.from('{"a":'), Buffer.from('[1,2]}')])
        .pipe(new JsonDepthLimit(2))
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', resolve)
        .on('error', reject),
    );
    expect(Buffer.concat(chunks).toString()).toBe('{"a":[1,2]}');

    const error = await new Promise<unknown>((resolve) =>
      Readable.from([Buffer.from(nested(70))])
        .pipe(new JsonDepthLimit(64))
        .on('data', () => undefined)
        .on('error', resolve),
    );
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect((error as ValidationFailedError).toItems()[0]).toMatchObject({
      status: '400',
      code: 'VALIDATION_FAILED',
      source: { pointer: '' },
    });
  });
});
