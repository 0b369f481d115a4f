import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ValidationFailedError } from '../errors/validation-error.js';
import { ToInt } from './query-transforms.js';
import { RequestValidationPipe } from './request-validation.pipe.js';

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
