/**
 * Polls `probe` until it returns a value other than undefined/false, or fails after `timeoutMs`
 * with the last error. For eventually consistent read models
 * (docs/architecture.md § Decisions where the contract is silent: ≤ 2 s).
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 5000, intervalMs = 50, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}` +
          (lastError ? `: ${(lastError as Error).message}` : ''),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
