import type { ClaimedDelivery } from './delivery-store.js';
import { EndpointQueues } from './endpoint-queues.js';

function claims(endpointId: string, n: number): ClaimedDelivery[] {
  return Array.from(
    { length: n },
    (_, i) => ({ id: `${endpointId}-${i}`, endpointId }) as ClaimedDelivery,
  );
}

describe('EndpointQueues', () => {
  it('starts at most the per-endpoint concurrency of each endpoint, oldest first', () => {
    const queues = new EndpointQueues(2, 100);
    queues.push(claims('a', 5));
    expect(queues.next().map((c) => c.id)).toEqual(['a-0', 'a-1']);
    expect(queues.next()).toEqual([]);
    queues.sent('a');
    expect(queues.next().map((c) => c.id)).toEqual(['a-2']);
    expect(queues.waiting).toBe(2);
    expect(queues.size).toBe(4);
  });

  it('shares the process slots between endpoints in turn, so one backlog cannot take them all', () => {
    const queues = new EndpointQueues(4, 4);
    queues.push(claims('a', 10));
    queues.push(claims('b', 10));
    const started = queues.next().map((c) => c.endpointId);
    expect(started.filter((e) => e === 'a')).toHaveLength(2);
    expect(started.filter((e) => e === 'b')).toHaveLength(2);
    queues.sent('a');
    expect(queues.next()).toHaveLength(1);
  });

  it('drops an endpoint’s waiting deliveries and keeps counting its requests in flight', () => {
    const queues = new EndpointQueues(1, 10);
    queues.push([...claims('a', 3), ...claims('b', 1)]);
    expect(queues.next()).toHaveLength(2);
    expect(queues.drop('a').map((c) => c.id)).toEqual(['a-1', 'a-2']);
    queues.push(claims('a', 1));
    expect(queues.next()).toEqual([]); // a's first request is still out
    queues.sent('a');
    expect(queues.next()).toHaveLength(1);
    expect(queues.dropAll()).toEqual([]);
  });
});
