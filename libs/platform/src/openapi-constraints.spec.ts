import { Equals, IsIn, IsInt, Matches, Max, MaxLength, Min } from 'class-validator';
import { MayBeNull, SchemaRule, describeValidator } from '@wp/http';
import { ValidateBy } from 'class-validator';
import { addClassConstraints, validatedClasses } from './openapi-constraints.js';
import { exampleValue } from './openapi-example-values.js';

const IsShout = () =>
  ValidateBy({ name: 'isShoutForTest', validator: { validate: (v) => v === 'HEY' } });
describeValidator('isShoutForTest', { pattern: '^HEY$' });

@SchemaRule({ oneOf: [{ required: ['a'] }, { required: ['b'] }] })
export class ConstraintProbeDto {
  @Equals('things')
  type!: string;

  @MayBeNull()
  @IsIn(['x', 'y'])
  kind?: string | null;

  @IsInt()
  @Min(1)
  @Max(9)
  count!: number;

  @MaxLength(5, { each: true })
  @Matches(/^[a-z]+$/, { each: true })
  tags!: string[];

  @IsShout()
  shout!: string;

  @MaxLength(3)
  a?: string;

  @MaxLength(3)
  b?: string;
}

describe('addClassConstraints: the document states what class-validator enforces', () => {
  const schemas = () => ({
    ConstraintProbeDto: {
      type: 'object',
      properties: {
        type: { type: 'string' },
        kind: { type: ['string', 'null'] },
        count: { type: 'number' },
        tags: { type: 'array', items: { type: 'string' } },
        shout: { type: 'string' },
        a: { type: 'string' },
        b: { type: 'string' },
      },
      required: ['type', 'count', 'tags', 'shout'],
    },
  });

  it('adds const, enum (null kept), integer bounds, item rules, own validators and class rules', () => {
    const all = schemas();
    addClassConstraints(all, validatedClasses());
    const schema = all.ConstraintProbeDto as Record<string, any>;
    expect(schema.properties.type).toEqual({ type: 'string', const: 'things' });
    expect(schema.properties.kind).toEqual({ type: ['string', 'null'], enum: ['x', 'y', null] });
    expect(schema.properties.count).toEqual({ type: 'integer', minimum: 1, maximum: 9 });
    expect(schema.properties.tags.items).toEqual({
      type: 'string',
      maxLength: 5,
      pattern: '^[a-z]+$',
    });
    expect(schema.properties.shout).toEqual({ type: 'string', pattern: '^HEY$' });
    expect(schema.oneOf).toEqual([{ required: ['a'] }, { required: ['b'] }]);
  });

  it('builds an example that satisfies the class rules: one form of a oneOf', () => {
    const all = schemas();
    addClassConstraints(all, validatedClasses());
    const example = exampleValue(
      all.ConstraintProbeDto,
      { components: { schemas: all } },
      'request',
    );
    expect(example).toMatchObject({ type: 'things', kind: 'x', count: 9 });
    expect(example).toHaveProperty('a');
    expect(example).not.toHaveProperty('b');
  });
});
