import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { normalizeTraceRequest } from './otlp-normalize.js';
import { decodeTraceRequest, encodeTraceResponse } from './otlp-proto.js';

/**
 * The OTLP descriptor of otlp-proto.ts against OpenTelemetry's own serializers
 * (`@opentelemetry/otlp-transformer`, the version the exporters here are pinned to): what its
 * protobuf serializer writes must read as what its JSON serializer writes for the same spans,
 * field for field, and its exporter must read our partial-success answer.
 */
function recordedSpans(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('langfuse-sdk', '4.0.0');
  const start = new Date('2026-01-01T00:00:00.000Z');
  const end = new Date('2026-01-01T00:00:01.250Z');
  const root = tracer.startSpan('agent-run', {
    kind: SpanKind.SERVER,
    startTime: start,
    attributes: {
      'langfuse.user.id': 'otel-user',
      'langfuse.trace.tags': ['otel', 'v5'],
      count: 42,
      ratio: 0.25,
      ok: true,
      sizes: [1, 2, 3],
    },
  });
  const child = tracer.startSpan(
    'llm-call',
    {
      kind: SpanKind.CLIENT,
      startTime: start,
      attributes: { 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 200 },
      links: [{ context: root.spanContext(), attributes: { reason: 'follows' } }],
    },
    trace.setSpan(ROOT_CONTEXT, root),
  );
  child.addEvent('first-token', { index: 0 }, new Date('2026-01-01T00:00:00.500Z'));
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
  child.end(end);
  root.end(end);
  return exporter.getFinishedSpans();
}

describe("OTLP protobuf descriptor against OpenTelemetry's serializers", () => {
  it('reads the protobuf export as the JSON export of the same spans', () => {
    const spans = recordedSpans();
    const proto = ProtobufTraceSerializer.serializeRequest(spans);
    const json = JsonTraceSerializer.serializeRequest(spans);
    if (!proto || !json) throw new Error('the serializers wrote nothing');
    const fromProto = normalizeTraceRequest(decodeTraceRequest(proto));
    const fromJson = normalizeTraceRequest(JSON.parse(new TextDecoder().decode(json)));
    expect(fromProto).toEqual(fromJson);

    const read = fromProto[0].scopeSpans[0];
    expect(read.scope).toMatchObject({ name: 'langfuse-sdk', version: '4.0.0' });
    const child = read.spans.find((s) => s.name === 'llm-call');
    const root = read.spans.find((s) => s.name === 'agent-run');
    expect(root?.attributes).toMatchObject({
      'langfuse.user.id': 'otel-user',
      'langfuse.trace.tags': ['otel', 'v5'],
      count: 42,
      ratio: 0.25,
      ok: true,
      sizes: [1, 2, 3],
    });
    expect(child).toMatchObject({
      traceId: root?.traceId,
      parentSpanId: root?.spanId,
      startTimeUnixNano: '1767225600000000000',
      endTimeUnixNano: '1767225601250000000',
      status: { code: 2, message: 'boom' },
    });
  });

  it("answers a partial success that OpenTelemetry's exporter reads", () => {
    expect(
      ProtobufTraceSerializer.deserializeResponse(encodeTraceResponse(2, 'bad spans')),
    ).toEqual({ partialSuccess: { rejectedSpans: 2, errorMessage: 'bad spans' } });
    expect(encodeTraceResponse(0, '')).toHaveLength(0);
  });
});
