import { EVENT_STREAMS, RPC_CATALOG, type RpcSubject } from '@wp/contracts';
import { rpcWireSubject } from './nats-rpc.transport.js';

/** A NATS subject filter match (`*` one token, `>` the rest). */
function matches(filter: string, subject: string): boolean {
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return s.length > i;
    if (f[i] !== '*' && f[i] !== s[i]) return false;
  }
  return f.length === s.length;
}

describe('RPC wire subjects', () => {
  it('fall outside every event stream, so JetStream never answers a request', () => {
    for (const subject of Object.keys(RPC_CATALOG) as RpcSubject[]) {
      for (const filter of Object.values(EVENT_STREAMS)) {
        // the catalog name alone would fall in its service's stream (`auth.>`, `org.>`)
        expect(matches(filter, subject)).toBe(filter === `${subject.split('.')[0]}.>`);
        expect(matches(filter, rpcWireSubject(subject))).toBe(false);
      }
    }
  });
});
