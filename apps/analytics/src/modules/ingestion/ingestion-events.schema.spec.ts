import { parseIngestionEvent } from './ingestion-events.schema.js';

const envelope = (type: string, body: unknown) => ({
  id: 'e1',
  timestamp: '2025-01-01T00:00:00.000Z',
  type,
  body,
});

describe('parseIngestionEvent (Langfuse ingestion.yml)', () => {
  it('normalises the environment like Langfuse', () => {
    const r = parseIngestionEvent(
      envelope('trace-create', { id: 't', environment: 'Langfuse-Prod' }),
    );
    expect(r.ok && r.event.kind === 'trace' && r.event.patch.environment).toBe('prod');
    const bad = parseIngestionEvent(envelope('trace-create', { id: 't', environment: 'a b' }));
    expect(bad.ok && bad.event.kind === 'trace' && bad.event.patch.environment).toBe('default');
  });

  it('turns legacy and OpenAI usage into usage and cost details', () => {
    const r = parseIngestionEvent(
      envelope('generation-create', {
        id: 'g',
        usage: { input: 3, output: 4, inputCost: 0.1, totalCost: 0.5 },
      }),
    );
    expect(r.ok && r.event.kind === 'observation' && r.event.patch).toMatchObject({
      usageDetails: { input: 3, output: 4, total: 7 },
      costDetails: { input: 0.1, total: 0.5 },
    });
    const openai = parseIngestionEvent(
      envelope('generation-update', {
        id: 'g',
        usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
      }),
    );
    expect(openai.ok && openai.event.kind === 'observation' && openai.event.patch).toMatchObject({
      usageDetails: { input: 1, output: 2, total: 3 },
      unit: 'TOKENS',
    });
  });

  it('requires promptName and promptVersion together', () => {
    const r = parseIngestionEvent(envelope('generation-create', { id: 'g', promptName: 'p' }));
    expect(r).toMatchObject({ ok: false, id: 'e1' });
  });

  it('maps the newer observation types and the legacy observation-create', () => {
    const tool = parseIngestionEvent(envelope('tool-create', { id: 'x' }));
    expect(
      tool.ok && tool.event.kind === 'observation' && [tool.event.type, tool.event.op],
    ).toEqual(['TOOL', 'create']);
    const legacy = parseIngestionEvent(
      envelope('observation-update', { id: 'x', type: 'GENERATION' }),
    );
    expect(
      legacy.ok && legacy.event.kind === 'observation' && [legacy.event.type, legacy.event.op],
    ).toEqual(['GENERATION', 'update']);
  });

  it('infers score data types and refuses a score tied to nothing', () => {
    const cat = parseIngestionEvent(
      envelope('score-create', { name: 'n', value: 'ok', traceId: 't' }),
    );
    expect(cat.ok && cat.event.kind === 'score' && cat.event.patch).toMatchObject({
      dataType: 'CATEGORICAL',
      value: 0,
      stringValue: 'ok',
    });
    expect(parseIngestionEvent(envelope('score-create', { name: 'n', value: 1 })).ok).toBe(false);
  });

  it('reports the event id of an envelope it cannot read, or "unknown"', () => {
    expect(parseIngestionEvent({ id: 'z', type: 'trace-create', body: {} })).toMatchObject({
      ok: false,
      id: 'z',
    });
    expect(parseIngestionEvent('nope')).toMatchObject({ ok: false, id: 'unknown' });
  });
});
