import { LLM_PROVIDERS, maskSecret } from './llm-providers.js';

describe('LLM provider keys', () => {
  it('masks to the first three and last four characters', () => {
    expect(maskSecret('sk-proj-abcdefghijklmnop-wxyz')).toBe('sk-…wxyz');
    expect(maskSecret('12345678')).toBe('123…5678');
  });

  it('lists lower-case provider identifiers without duplicates', () => {
    expect(new Set(LLM_PROVIDERS).size).toBe(LLM_PROVIDERS.length);
    for (const p of LLM_PROVIDERS) expect(p).toMatch(/^[a-z_]+$/);
  });
});
