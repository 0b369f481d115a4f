import { Injectable } from '@nestjs/common';
import { LangfuseApiError } from '../common/langfuse-errors.js';
import { IngestionWriter } from '../ingestion/ingestion-writer.js';
import { decodeTraceRequest, encodeTraceResponse } from './otlp-proto.js';
import { normalizeTraceRequest, OtlpFormatError } from './otlp-normalize.js';
import { mapResourceSpans } from './otel-mapper.js';

export interface OtelExportResult {
  json: { partialSuccess?: { rejectedSpans: number; errorMessage: string } };
  protobuf: Uint8Array;
}

/**
 * Decodes an OTLP trace export, maps its spans to Langfuse traces and observations
 * (otel-mapper.ts) and writes them through the same writer as batch ingestion. A body that is
 * not an ExportTraceServiceRequest is a 400; spans without ids are rejected individually
 * (`partialSuccess`); a storage failure is a 500 so that the exporter retries.
 */
@Injectable()
export class OtelService {
  constructor(private readonly writer: IngestionWriter) {}

  async export(projectId: number, body: unknown, protobuf: boolean): Promise<OtelExportResult> {
    let request: unknown = body;
    try {
      if (protobuf) {
        if (!Buffer.isBuffer(body)) throw new OtlpFormatError('expected a protobuf body');
        request = decodeTraceRequest(body);
      }
      const resourceSpans = normalizeTraceRequest(request ?? {});
      const { changes, rejected, errors } = mapResourceSpans(projectId, resourceSpans, new Date());
      await this.writer.submit(changes);
      const errorMessage = errors.slice(0, 10).join('; ');
      return {
        json: rejected > 0 ? { partialSuccess: { rejectedSpans: rejected, errorMessage } } : {},
        protobuf: encodeTraceResponse(rejected, errorMessage),
      };
    } catch (error) {
      if (
        error instanceof OtlpFormatError ||
        error instanceof RangeError ||
        isProtobufError(error)
      ) {
        throw LangfuseApiError.invalid(
          [{ code: 'invalid_otlp', message: (error as Error).message, path: [] }],
          'invalid_body',
        );
      }
      throw error;
    }
  }
}

function isProtobufError(error: unknown): boolean {
  return (
    error instanceof Error && /invalid wire type|index out of range|illegal/i.test(error.message)
  );
}
