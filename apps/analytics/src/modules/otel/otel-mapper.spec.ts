import type { Change } from '../ingestion/changes.js';
import { mapResourceSpans } from './otel-mapper.js';
import { normalizeTraceRequest } from './otlp-normalize.js';
import { decodeTraceRequest, ExportTraceServiceRequest } from './otlp-proto.js';

const traceIdHex = '0123456789abcdef0123456789abcdef';
const rootHex = '0011223344556677';
const childHex = '8899aabbccddeeff';

function request(spans: object[]) {
  return {
    resourceSpans: [
      { resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'langfuse-sdk' }, spans }] },
    ],
  };
}

function byKind(changes: Change[]) {
  return {
    traces: changes.filter((c) => c.kind === 'trace'),
    observations: changes.filter((c) => c.kind === 'observation'),
  };
}

describe('OTLP decoding', () => {
  it('reads the same spans from protobuf as from OTLP/JSON', () => {
    const bytes = ExportTraceServiceRequest.encode(
      ExportTraceServiceRequest.fromObject({
        resourceSpans: [
          {
            scopeSpans: [
              {
                scope: { name: 's', version: '1' },
                spans: [
                  {
                    traceId: Buffer.from(traceIdHex, 'hex'),
                    spanId: Buffer.from(childHex, 'hex'),
                    parentSpanId: Buffer.from(rootHex, 'hex'),
                    name: 'child',
                    startTimeUnixNano: '1735689600000000000',
                    endTimeUnixNano: '1735689601000000000',
                    attributes: [
                      { key: 'n', value: { intValue: 42 } },
                      {
                        key: 'l',
                        value: {
                          arrayValue: { values: [{ stringValue: 'a' }, { boolValue: true }] },
                        },
                      },
                    ],
                    status: { code: 2, message: 'boom' },
                  },
                ],
              },
            ],
          },
        ],
      }),
    ).finish();
    const [rs] = normalizeTraceRequest(decodeTraceRequest(bytes));
    expect(rs.scopeSpans[0].spans[0]).toMatchObject({
      traceId: traceIdHex,
      spanId: childHex,
      parentSpanId: rootHex,
      startTimeUnixNano: '1735689600000000000',
      attributes: { n: 42, l: ['a', true] },
      status: { code: 2, message: 'boom' },
    });
  });
});

describe('mapResourceSpans (Langfuse OTel mapping)', () => {
  const now = new Date('2025-01-01T00:00:00Z');

  it('makes a root span the trace and keeps a child as its observation only', () => {
    const { changes, rejected } = mapResourceSpans(
      1,
      normalizeTraceRequest(
        request([
          {
            traceId: traceIdHex,
            spanId: rootHex,
            name: 'root',
            startTimeUnixNano: '1735689600000000000',
          },
          {
            traceId: traceIdHex,
            spanId: childHex,
            parentSpanId: rootHex,
            name: 'gen',
            startTimeUnixNano: '1735689600500000000',
            attributes: [
              { key: 'langfuse.observation.type', value: { stringValue: 'generation' } },
              { key: 'langfuse.observation.model.name', value: { stringValue: 'gpt-4o' } },
              {
                key: 'langfuse.observation.usage_details',
                value: { stringValue: '{"input":3,"output":4}' },
              },
              { key: 'langfuse.observation.input', value: { stringValue: '{"q":1}' } },
            ],
          },
        ]),
      ),
      now,
    );
    expect(rejected).toBe(0);
    const { traces, observations } = byKind(changes);
    expect(traces).toHaveLength(1);
    expect(traces[0]).toMatchObject({
      patch: { id: traceIdHex, name: 'root', keepImplicit: false },
    });
    expect(observations.map((o) => o.kind === 'observation' && o.type)).toEqual([
      'SPAN',
      'GENERATION',
    ]);
    expect(observations[1]).toMatchObject({
      patch: {
        id: childHex,
        parentObservationId: rootHex,
        model: 'gpt-4o',
        usageDetails: { input: 3, output: 4 },
        input: { q: 1 },
      },
    });
  });

  it('updates trace attributes from a child span without creating the trace', () => {
    const { changes } = mapResourceSpans(
      1,
      normalizeTraceRequest(
        request([
          {
            traceId: traceIdHex,
            spanId: childHex,
            parentSpanId: rootHex,
            name: 'child',
            attributes: [
              { key: 'user.id', value: { stringValue: 'u' } },
              { key: 'langfuse.trace.tags', value: { stringValue: '["a","b"]' } },
            ],
          },
        ]),
      ),
      now,
    );
    expect(byKind(changes).traces[0]).toMatchObject({
      patch: { userId: 'u', tags: ['a', 'b'], keepImplicit: true, name: undefined },
    });
  });

  it('rejects spans without ids and counts them', () => {
    const { changes, rejected } = mapResourceSpans(
      1,
      normalizeTraceRequest(request([{ name: 'x' }])),
      now,
    );
    expect(changes).toEqual([]);
    expect(rejected).toBe(1);
  });

  it('infers GENERATION from GenAI model attributes and ERROR from the status', () => {
    const { changes } = mapResourceSpans(
      1,
      normalizeTraceRequest(
        request([
          {
            traceId: traceIdHex,
            spanId: rootHex,
            name: 'chat',
            attributes: [
              { key: 'gen_ai.request.model', value: { stringValue: 'm' } },
              { key: 'gen_ai.request.temperature', value: { doubleValue: 0.5 } },
              { key: 'gen_ai.usage.input_tokens', value: { intValue: '7' } },
            ],
            status: { code: 2 },
          },
        ]),
      ),
      now,
    );
    const [obs] = byKind(changes).observations;
    expect(obs).toMatchObject({
      type: 'GENERATION',
      patch: {
        model: 'm',
        level: 'ERROR',
        modelParameters: { temperature: 0.5 },
        usageDetails: { input: 7 },
      },
    });
  });
});
