import { TransferCodes } from './transfer-codes.js';

describe('TransferCodes', () => {
  const codes = new TransferCodes('s'.repeat(32));
  const id = '6f1c1c9e-8f43-4a57-9d8e-2b1d3b1b0a11';

  it('makes 6-digit codes', () => {
    for (let i = 0; i < 200; i++) expect(codes.generate()).toMatch(/^\d{6}$/);
  });

  it('verifies a code only for its transfer and phase, and never stores it in the clear', () => {
    const stored = codes.digest(id, 'sender', '123456');
    expect(stored).not.toContain('123456');
    expect(codes.verify(stored, id, 'sender', '123456')).toBe(true);
    expect(codes.verify(stored, id, 'sender', '123457')).toBe(false);
    expect(codes.verify(stored, id, 'recipient', '123456')).toBe(false);
    expect(codes.verify(stored, '00000000-0000-4000-8000-000000000000', 'sender', '123456')).toBe(
      false,
    );
    expect(codes.verify(null, id, 'sender', '123456')).toBe(false);
  });

  it('depends on the server secret', () => {
    const other = new TransferCodes('t'.repeat(32));
    expect(other.verify(codes.digest(id, 'sender', '123456'), id, 'sender', '123456')).toBe(false);
  });
});
