import { SlowEndpoints } from './slow-endpoints.js';

describe('SlowEndpoints', () => {
  it('lists the endpoints marked slow until a quick success clears one', () => {
    const slow = new SlowEndpoints(60_000);
    expect(slow.mark('a', 1000)).toBe(true);
    expect(slow.mark('b', 2000)).toBe(true);
    expect(slow.mark('a', 3000)).toBe(false);
    expect(slow.live(3000)).toEqual(['b', 'a']);
    slow.clear('b');
    expect(slow.live(3000)).toEqual(['a']);
  });

  it('forgets a mark older than the window, so a deleted or long-recovered endpoint is not kept', () => {
    const slow = new SlowEndpoints(60_000);
    slow.mark('deleted', 0);
    slow.mark('recovered', 10_000);
    slow.mark('still-slow', 10_000);
    slow.mark('still-slow', 65_000);
    expect(slow.live(60_000)).toEqual(['deleted', 'recovered', 'still-slow']);
    expect(slow.live(70_001)).toEqual(['still-slow']);
    expect(slow.size).toBe(1);
    expect(slow.mark('recovered', 70_001)).toBe(true);
  });

  it('stays bounded by the endpoints slow within the window, however many were ever marked', () => {
    const slow = new SlowEndpoints(1000);
    for (let t = 0; t < 100_000; t += 10) {
      slow.mark(`endpoint-${t}`, t);
      slow.live(t);
    }
    expect(slow.size).toBeLessThanOrEqual(101);
  });
});
