import type { ObservationRecord } from '../storage/records.js';
import { implicitTrace, mergeMetadata, mergeObservation, mergeScore, mergeTrace } from './merge.js';

const T0 = new Date('2025-01-01T00:00:00Z');
const T1 = new Date('2025-01-01T00:01:00Z');
const NOW = new Date('2025-01-02T00:00:00Z');

describe('mergeTrace (Langfuse upsert with merge)', () => {
  it('creates a trace with the event time when the body has no timestamp', () => {
    const t = mergeTrace(undefined, { id: 't', name: 'n' }, T0, NOW, 7);
    expect(t).toMatchObject({
      projectId: 7,
      id: 't',
      name: 'n',
      timestamp: T0,
      tags: [],
      implicit: false,
    });
  });

  it('keeps fields not sent, replaces fields sent, unions and sorts tags', () => {
    const first = mergeTrace(
      undefined,
      { id: 't', name: 'a', userId: 'u', tags: ['z', 'b'] },
      T0,
      NOW,
      1,
    );
    const second = mergeTrace(first, { id: 't', name: 'b', tags: ['a', 'b'] }, T1, NOW, 1);
    expect(second).toMatchObject({ name: 'b', userId: 'u', tags: ['a', 'b', 'z'] });
  });

  it('never moves the timestamp or environment of a created trace', () => {
    const first = mergeTrace(
      undefined,
      { id: 't', timestamp: T0, environment: 'prod' },
      T0,
      NOW,
      1,
    );
    const second = mergeTrace(first, { id: 't', timestamp: T1, environment: 'dev' }, T1, NOW, 1);
    expect(second.timestamp).toEqual(T0);
    expect(second.environment).toBe('prod');
  });

  it('lets the first trace-create set time and environment of an implicit trace', () => {
    const obs = mergeObservation(
      undefined,
      { id: 'o', traceId: 't', startTime: T1 },
      'create',
      'SPAN',
      T1,
      NOW,
      1,
    );
    const implicit = implicitTrace(obs, NOW);
    expect(implicit).toMatchObject({ id: 't', timestamp: T1, implicit: true });
    const created = mergeTrace(
      implicit,
      { id: 't', timestamp: T0, environment: 'prod' },
      T0,
      NOW,
      1,
    );
    expect(created).toMatchObject({ timestamp: T0, environment: 'prod', implicit: false });
  });

  it('keeps a trace implicit for OTLP child-span updates (keepImplicit)', () => {
    const t = mergeTrace(undefined, { id: 't', userId: 'u', keepImplicit: true }, T1, NOW, 1);
    expect(t.implicit).toBe(true);
    const root = mergeTrace(t, { id: 't', timestamp: T0, name: 'root' }, T0, NOW, 1);
    expect(root).toMatchObject({ timestamp: T0, name: 'root', userId: 'u', implicit: false });
  });
});

describe('mergeObservation', () => {
  const create = (patch: Partial<ObservationRecord> & { id: string }) =>
    mergeObservation(
      undefined,
      { traceId: 't', ...patch } as never,
      'create',
      'GENERATION',
      T0,
      NOW,
      1,
    );

  it("keeps the create's type when an update names the span family", () => {
    const g = create({ id: 'g' });
    const updated = mergeObservation(g, { id: 'g', output: 'x' }, 'update', 'SPAN', T1, NOW, 1);
    expect(updated).toMatchObject({ type: 'GENERATION', output: 'x' });
  });

  it('does not let an empty usage map replace the stored one', () => {
    const g = mergeObservation(
      undefined,
      { id: 'g', traceId: 't', usageDetails: { input: 5 } },
      'create',
      'GENERATION',
      T0,
      NOW,
      1,
    );
    const u = mergeObservation(
      g,
      { id: 'g', usageDetails: {} },
      'update',
      'GENERATION',
      T1,
      NOW,
      1,
    );
    expect(u.providedUsageDetails).toEqual({ input: 5 });
  });

  it('treats an observation known only from an update as implicit until its create', () => {
    const u = mergeObservation(
      undefined,
      { id: 'o', traceId: 't', startTime: T1 },
      'update',
      'SPAN',
      T1,
      NOW,
      1,
    );
    expect(u.implicit).toBe(true);
    const c = mergeObservation(
      u,
      { id: 'o', traceId: 't', startTime: T0, name: 'n' },
      'create',
      'SPAN',
      T0,
      NOW,
      1,
    );
    expect(c).toMatchObject({ implicit: false, startTime: T0, name: 'n' });
    const later = mergeObservation(c, { id: 'o', startTime: T1 }, 'create', 'SPAN', T1, NOW, 1);
    expect(later.startTime).toEqual(T0);
  });

  it('gives an observation without traceId a wrapper trace with its own id', () => {
    const o = mergeObservation(undefined, { id: 'solo' }, 'create', 'EVENT', T0, NOW, 1);
    expect(o.traceId).toBe('solo');
  });
});

describe('mergeScore', () => {
  it('keeps traceId and timestamp of the first write and replaces the value', () => {
    const first = mergeScore(
      undefined,
      {
        id: 's',
        name: 'n',
        traceId: 't',
        source: 'API',
        dataType: 'NUMERIC',
        value: 1,
        stringValue: null,
      },
      T0,
      NOW,
      1,
    );
    const second = mergeScore(
      first,
      {
        id: 's',
        name: 'n',
        traceId: 'other',
        source: 'API',
        dataType: 'NUMERIC',
        value: 2,
        stringValue: null,
      },
      T1,
      NOW,
      1,
    );
    expect(second).toMatchObject({ traceId: 't', timestamp: T0, value: 2 });
  });
});

describe('mergeMetadata', () => {
  it('merges objects deeply and lets other JSON replace', () => {
    expect(mergeMetadata({ a: 1, n: { x: 1 } }, { n: { y: 2 } })).toEqual({
      a: 1,
      n: { x: 1, y: 2 },
    });
    expect(mergeMetadata({ a: 1 }, 'text')).toBe('text');
    expect(mergeMetadata({ a: 1 }, undefined)).toEqual({ a: 1 });
  });
});
