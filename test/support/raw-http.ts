import { connect, type Socket } from 'node:net';

/**
 * Raw HTTP/1.1 on a socket, for tests that must send what a client could put on the wire
 * (malformed requests, oversized headers) and read every answer as written, the JSON:API and
 * Langfuse error checks with it.
 */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Reads one HTTP/1.1 answer (Content-Length framed) from a socket. */
export function readAnswer(socket: Socket): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = data.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (data.length < end + 4 + length) return;
      socket.off('data', onData);
      socket.off('error', reject);
      const text = data.subarray(end + 4, end + 4 + length).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: the assertions say so
      }
      resolve({ status: Number(head[0].split(' ')[1]), headers, body });
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

export function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends `request` as written (anything a client could put on the wire) on a new connection. */
export async function raw(port: number, request: string): Promise<RawAnswer> {
  const socket = await open(port);
  try {
    const answer = readAnswer(socket);
    socket.write(request);
    return await answer;
  } finally {
    socket.destroy();
  }
}

/** `{"errors":[{status, code, title, detail}]}` with the given status (docs/decisions.md § Wire format). */
export function expectJsonApiError(answer: RawAnswer, status: number, code?: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status,
    body: {
      errors: [
        expect.objectContaining({
          status: String(status),
          code: code ?? expect.any(String),
          title: expect.any(String),
        }),
      ],
    },
  });
  expect(answer.body.statusCode).toBeUndefined();
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  // Every answer (docs/operations.md § Response headers).
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
}

/** Analytics answers in Langfuse's shape instead, `{message, error, code}` (docs/analytics.md § Errors). */
export function expectLangfuseError(answer: RawAnswer, status: number, code: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status,
    body: { message: expect.any(String), error: expect.any(String), code },
  });
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
}
