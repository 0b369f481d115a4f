import http from 'node:http';
import https from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

/** Most of an answer's body kept (and read), bytes. */
export const RESPONSE_EXCERPT_BYTES = 4096;

/** Cloud metadata services, refused even where private networks are allowed. */
export const METADATA_ADDRESSES = [
  '169.254.169.254',
  '169.254.170.2',
  'fd00:ec2::254',
  '100.100.100.200',
];

/** Which addresses outbound requests may reach (docs/org.md § SSRF defence). */
export interface OutboundPolicy {
  /** Private/loopback/link-local addresses or CIDR ranges allowed anyway (tests, development). */
  allowedPrivateAddresses: readonly string[];
  /** Every private address allowed (development only); metadata addresses stay refused. */
  allowPrivateNetworks: boolean;
}

/** What came back from one POST. */
export interface OutboundResult {
  /** HTTP status; null when no answer came (refused, timed out, reset, SSRF refusal). */
  status: number | null;
  /** Up to {@link RESPONSE_EXCERPT_BYTES} of the body (UTF-8). */
  body: string | null;
  retryAfter: string | null;
  /** Why no answer came, or null. */
  error: string | null;
  durationMs: number;
}

/**
 * The webhook HTTP client (docs/org.md § SSRF defence): `request-filtering-agent` agents check
 * the address of every connection after DNS resolution — private, loopback, link-local,
 * unspecified addresses are refused unless allowed by the policy, metadata addresses always —
 * so a name that resolves to a private address at send time (DNS rebinding) is refused too.
 * Redirects are never followed (node's `http.request` does not), the attempt is bounded by
 * `timeoutMs` from start to the last byte read, and at most 4 KB of the answer is read.
 */
export class OutboundHttp {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(
    policy: OutboundPolicy,
    private readonly timeoutMs: number,
  ) {
    const filter = {
      allowPrivateIPAddress: policy.allowPrivateNetworks,
      allowMetaIPAddress: false,
      // the library lets its allow-list win over its deny-list: metadata never enters it
      allowIPAddressList: policy.allowedPrivateAddresses.filter(
        (a) => !METADATA_ADDRESSES.includes(a),
      ),
      denyIPAddressList: METADATA_ADDRESSES,
    };
    this.httpAgent = new RequestFilteringHttpAgent({ keepAlive: true, maxSockets: 64, ...filter });
    this.httpsAgent = new RequestFilteringHttpsAgent({
      keepAlive: true,
      maxSockets: 64,
      ...filter,
    });
  }

  /** POSTs `body` (JSON) to `url` with `headers`; never throws. */
  post(url: string, body: string, headers: Record<string, string>): Promise<OutboundResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise<OutboundResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<OutboundResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, durationMs: elapsed() });
      };
      const fail = (error: string) => finish({ status: null, body: null, retryAfter: null, error });
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        fail('invalid URL');
        return;
      }
      const secure = target.protocol === 'https:';
      const request = (secure ? https : http).request(target, {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'workspace-platform-webhooks/1',
        },
      });
      const timer = setTimeout(() => {
        fail(`timed out after ${this.timeoutMs} ms`);
        request.destroy();
      }, this.timeoutMs);
      request.on('error', (error) => fail(describe(error)));
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES);
          const retryAfter = response.headers['retry-after'];
          finish({
            status: response.statusCode ?? null,
            body: excerpt.toString('utf8'),
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
            error: null,
          });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_EXCERPT_BYTES) {
            done();
            response.destroy(); // the rest is not read
          }
        });
        response.on('end', done);
        response.on('error', done);
      });
      request.end(body);
    });
  }

  /** Closes idle keep-alive connections (shutdown). */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `${code}: ${error.message}` : error.message;
}
