/** A fake fetch for the SDK's unit tests: records requests, answers from a handler. */
export function fakeFetch(
  handler: (request: Request, body: unknown) => Response | Promise<Response>,
) {
  const calls: { method: string; path: string; headers: Headers; body: unknown }[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const text = request.body ? await request.clone().text() : '';
    const body: unknown = text ? JSON.parse(text) : undefined;
    const url = new URL(request.url);
    calls.push({
      method: request.method,
      path: url.pathname + url.search,
      headers: request.headers,
      body,
    });
    return handler(request, body);
  };
  return { fetch, calls };
}

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function session(access: string, refresh: string) {
  return {
    data: {
      id: 'u1',
      type: 'session',
      attributes: {
        accessToken: access,
        refreshToken: refresh,
        tokenType: 'Bearer',
        expiresIn: 900,
        email: 'a@example.com',
        firstName: '',
        lastName: '',
      },
    },
  };
}
