import { takeResendSlot } from './resend-budget.js';

describe('invitation resend budget (docs/org.md § Invitations)', () => {
  const hour = 3600_000;
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

  it('grants the first resends at once, up to the limit', () => {
    let resentAt: Date[] = [];
    for (let i = 0; i < 5; i++) {
      const slot = takeResendSlot(resentAt, at(i * 1000), 5, hour);
      expect(slot.granted).toBe(true);
      if (slot.granted) resentAt = slot.resentAt;
    }
    expect(resentAt).toHaveLength(5);
    expect(takeResendSlot(resentAt, at(5000), 5, hour)).toEqual({
      granted: false,
      retryAfterSeconds: 3600 - 5,
    });
  });

  it('frees a slot when the oldest counted resend leaves the window', () => {
    const resentAt = [at(0), at(10_000), at(20_000)];
    expect(takeResendSlot(resentAt, at(hour - 1), 3, hour)).toEqual({
      granted: false,
      retryAfterSeconds: 1,
    });
    const slot = takeResendSlot(resentAt, at(hour), 3, hour);
    expect(slot).toEqual({ granted: true, resentAt: [at(10_000), at(20_000), at(hour)] });
  });

  it('keeps at most `limit` times, whatever was stored, and never asks to wait under 1 s', () => {
    const many = Array.from({ length: 9 }, (_, i) => at(i));
    const refused = takeResendSlot(many, at(100), 2, hour);
    expect(refused).toEqual({ granted: false, retryAfterSeconds: 3600 });
    const slot = takeResendSlot(many, at(hour + 10), 2, hour);
    expect(slot).toEqual({ granted: true, resentAt: [at(hour + 10)] });
    expect(takeResendSlot([at(0)], at(hour - 1), 1, hour)).toEqual({
      granted: false,
      retryAfterSeconds: 1,
    });
  });
});
