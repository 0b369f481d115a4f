import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ValidationFailedError } from '../errors/validation-error.js';
import { ToInt } from './query-transforms.js';
import { FAST_VALIDATION, RequestValidationPipe } from './request-validation.pipe.js';

class Attributes {
  @IsString()
  name!: string;
}
class Data {
  @ValidateNested()
  @Type(() => Attributes)
  attributes!: Attributes;
}
class Body {
  @ValidateNested()
  @Type(() => Data)
  data!: Data;

  @IsOptional()
  @IsInt()
  count?: number;
}
class Query {
  @IsOptional()
  @ToInt()
  @IsInt()
  page?: number;
}

describe('RequestValidationPipe', () => {
  const pipe = new RequestValidationPipe();

  it('strips unknown fields', async () => {
    const out = (await pipe.transform(
      { data: { attributes: { name: 'x', extra: 1 } }, junk: true },
      { type: 'body', metatype: Body },
    )) as Record<string, unknown>;
    expect(out).not.toHaveProperty('junk');
    expect((out as unknown as Body).data.attributes).toEqual({ name: 'x' });
  });

  it('points at every invalid body field with a JSON pointer', async () => {
    const error = await pipe
      .transform(
        { data: { attributes: { name: 5 } }, count: '3' },
        { type: 'body', metatype: Body },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationFailedError);
    const pointers = (error as ValidationFailedError).toItems().map((i) => i.source?.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/data/attributes/name', '/count']));
  });

  it('never converts a JSON string into a number', async () => {
    await expect(
      pipe.transform(
        { data: { attributes: { name: 'x' } }, count: '3' },
        { type: 'body', metatype: Body },
      ),
    ).rejects.toBeInstanceOf(ValidationFailedError);
  });

  it('refuses a body that is not an object', async () => {
    await expect(pipe.transform([1, 2], { type: 'body', metatype: Body })).rejects.toBeInstanceOf(
      ValidationFailedError,
    );
  });

  it('converts well-formed query integers and names bad parameters', async () => {
    expect(await pipe.transform({ page: '2' }, { type: 'query', metatype: Query })).toEqual({
      page: 2,
    });
    const error = (await pipe
      .transform({ page: 'two' }, { type: 'query', metatype: Query })
      .catch((e: unknown) => e)) as ValidationFailedError;
    expect(error.toItems()[0]?.source).toEqual({ parameter: 'page' });
  });
});

describe('RequestValidationPipe fast path (FAST_VALIDATION)', () => {
  const pipe = new RequestValidationPipe();
  class Fast {
    @IsString()
    name!: string;

    static [FAST_VALIDATION](value: unknown): Fast | undefined {
      const name = (value as { name?: unknown } | null)?.name;
      return typeof name === 'string' && name !== 'slow'
        ? Object.assign(new Fast(), { name })
        : undefined;
    }
  }

  it('answers what the fast path returns, without class-validator', async () => {
    const out = await pipe.transform({ name: 'x', junk: 1 }, { type: 'body', metatype: Fast });
    expect(out).toBeInstanceOf(Fast);
    expect(out).toEqual({ name: 'x' });
  });

  it('falls back to class-validator when the fast path is not sure', async () => {
    const slow = await pipe.transform({ name: 'slow' }, { type: 'body', metatype: Fast });
    expect(slow).toEqual({ name: 'slow' });
    await expect(
      pipe.transform({ name: 3 }, { type: 'body', metatype: Fast }),
    ).rejects.toBeInstanceOf(ValidationFailedError);
  });
});
