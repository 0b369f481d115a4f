import protobuf from 'protobufjs';

/**
 * The OTLP trace export messages (opentelemetry-proto: collector/trace/v1/trace_service.proto,
 * trace/v1/trace.proto, common/v1/common.proto, resource/v1/resource.proto), declared as a
 * protobufjs JSON descriptor with the specification's field numbers and wire types. Only the
 * messages a trace export carries; enums are read as their integer values. Declared here because
 * the OpenTelemetry JS project publishes no decoder of these requests and no .proto files at the
 * release we use (docs/decisions.md § Stack and toolchain); otlp-proto.spec.ts holds it to
 * `@opentelemetry/otlp-transformer`'s own protobuf and JSON serializers of that release.
 */
const DESCRIPTOR = {
  nested: {
    AnyValue: {
      oneofs: {
        value: {
          oneof: [
            'stringValue',
            'boolValue',
            'intValue',
            'doubleValue',
            'arrayValue',
            'kvlistValue',
            'bytesValue',
          ],
        },
      },
      fields: {
        stringValue: { type: 'string', id: 1 },
        boolValue: { type: 'bool', id: 2 },
        intValue: { type: 'int64', id: 3 },
        doubleValue: { type: 'double', id: 4 },
        arrayValue: { type: 'ArrayValue', id: 5 },
        kvlistValue: { type: 'KeyValueList', id: 6 },
        bytesValue: { type: 'bytes', id: 7 },
      },
    },
    ArrayValue: { fields: { values: { rule: 'repeated', type: 'AnyValue', id: 1 } } },
    KeyValueList: { fields: { values: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
    KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
    InstrumentationScope: {
      fields: {
        name: { type: 'string', id: 1 },
        version: { type: 'string', id: 2 },
        attributes: { rule: 'repeated', type: 'KeyValue', id: 3 },
        droppedAttributesCount: { type: 'uint32', id: 4 },
      },
    },
    Resource: {
      fields: {
        attributes: { rule: 'repeated', type: 'KeyValue', id: 1 },
        droppedAttributesCount: { type: 'uint32', id: 2 },
      },
    },
    Status: {
      fields: { message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } },
    },
    SpanEvent: {
      fields: {
        timeUnixNano: { type: 'fixed64', id: 1 },
        name: { type: 'string', id: 2 },
        attributes: { rule: 'repeated', type: 'KeyValue', id: 3 },
        droppedAttributesCount: { type: 'uint32', id: 4 },
      },
    },
    SpanLink: {
      fields: {
        traceId: { type: 'bytes', id: 1 },
        spanId: { type: 'bytes', id: 2 },
        traceState: { type: 'string', id: 3 },
        attributes: { rule: 'repeated', type: 'KeyValue', id: 4 },
        droppedAttributesCount: { type: 'uint32', id: 5 },
        flags: { type: 'fixed32', id: 6 },
      },
    },
    Span: {
      fields: {
        traceId: { type: 'bytes', id: 1 },
        spanId: { type: 'bytes', id: 2 },
        traceState: { type: 'string', id: 3 },
        parentSpanId: { type: 'bytes', id: 4 },
        flags: { type: 'fixed32', id: 16 },
        name: { type: 'string', id: 5 },
        kind: { type: 'int32', id: 6 },
        startTimeUnixNano: { type: 'fixed64', id: 7 },
        endTimeUnixNano: { type: 'fixed64', id: 8 },
        attributes: { rule: 'repeated', type: 'KeyValue', id: 9 },
        droppedAttributesCount: { type: 'uint32', id: 10 },
        events: { rule: 'repeated', type: 'SpanEvent', id: 11 },
        droppedEventsCount: { type: 'uint32', id: 12 },
        links: { rule: 'repeated', type: 'SpanLink', id: 13 },
        droppedLinksCount: { type: 'uint32', id: 14 },
        status: { type: 'Status', id: 15 },
      },
    },
    ScopeSpans: {
      fields: {
        scope: { type: 'InstrumentationScope', id: 1 },
        spans: { rule: 'repeated', type: 'Span', id: 2 },
        schemaUrl: { type: 'string', id: 3 },
      },
    },
    ResourceSpans: {
      fields: {
        resource: { type: 'Resource', id: 1 },
        scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 },
        schemaUrl: { type: 'string', id: 3 },
      },
    },
    ExportTraceServiceRequest: {
      fields: { resourceSpans: { rule: 'repeated', type: 'ResourceSpans', id: 1 } },
    },
    ExportTracePartialSuccess: {
      fields: {
        rejectedSpans: { type: 'int64', id: 1 },
        errorMessage: { type: 'string', id: 2 },
      },
    },
    ExportTraceServiceResponse: {
      fields: { partialSuccess: { type: 'ExportTracePartialSuccess', id: 1 } },
    },
  },
};

const root = protobuf.Root.fromJSON(DESCRIPTOR);
export const ExportTraceServiceRequest = root.lookupType('ExportTraceServiceRequest');
export const ExportTraceServiceResponse = root.lookupType('ExportTraceServiceResponse');

/**
 * Decodes a binary `ExportTraceServiceRequest` into the OTLP/JSON object shape (camelCase
 * fields, 64-bit integers as decimal strings, ids as Buffers): the same shape the JSON decoder
 * takes, so one normaliser serves both encodings.
 */
export function decodeTraceRequest(body: Uint8Array): unknown {
  const message = ExportTraceServiceRequest.decode(body);
  return ExportTraceServiceRequest.toObject(message, {
    longs: String,
    arrays: true,
    oneofs: false,
    defaults: false,
  });
}

/** A binary `ExportTraceServiceResponse`; empty means full success. */
export function encodeTraceResponse(rejectedSpans: number, errorMessage: string): Uint8Array {
  if (rejectedSpans === 0) return new Uint8Array();
  return ExportTraceServiceResponse.encode(
    ExportTraceServiceResponse.create({
      partialSuccess: { rejectedSpans, errorMessage },
    }),
  ).finish();
}
