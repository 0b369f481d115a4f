/**
 * The one error class of the SDK: every refused request (any non-2xx answer) and every answer
 * the contract says to treat as invalid. `status` is the HTTP status (0: no usable answer),
 * `code` the machine-readable code (JSON:API `errors[0].code`, or the analytics API's `code`),
 * `detail` the human-readable explanation, `requestId` the `X-Request-Id` to quote to support.
 */
export class PlatformApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string | undefined,
    readonly requestId: string | undefined,
    readonly body?: unknown,
  ) {
    super(`${status} ${code}${detail ? `: ${detail}` : ''}`);
    this.name = 'PlatformApiError';
  }

  /** Reads the error body of a refused answer (JSON:API errors or the analytics shape). */
  static async fromResponse(response: Response): Promise<PlatformApiError> {
    const requestId = response.headers.get('x-request-id') ?? undefined;
    let body: unknown;
    try {
      body = await response.clone().json();
    } catch {
      body = undefined;
    }
    return PlatformApiError.fromBody(response.status, body, requestId);
  }

  static fromBody(status: number, body: unknown, requestId?: string): PlatformApiError {
    const b = (body ?? {}) as {
      errors?: { code?: string; detail?: string; title?: string }[];
      code?: string;
      message?: string;
    };
    const first = b.errors?.[0];
    const code = first?.code ?? b.code ?? `HTTP_${status}`;
    const detail = first?.detail ?? first?.title ?? b.message;
    return new PlatformApiError(status, code, detail, requestId, body);
  }
}

/** An answer the contract says the client must reject (e.g. a different organization id). */
export function invalidResponse(detail: string, requestId?: string): PlatformApiError {
  return new PlatformApiError(0, 'INVALID_RESPONSE', detail, requestId);
}
