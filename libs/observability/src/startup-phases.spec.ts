import { StartupPhases } from './startup-phases.js';

describe('StartupPhases (docs/operations.md § Start-up time)', () => {
  it('sums the main phases in order and lists the waits inside them', async () => {
    const phases = new StartupPhases();
    phases.phaseUntil('node', 40);
    await phases.track('database', () => new Promise((resolve) => setTimeout(resolve, 20)));
    phases.phase('providers');
    const summary = phases.summary();
    expect(summary).toMatch(/^ready in \d+ ms: node 40, providers \d+ \(waits: database \d+\)$/);
    const { phases: main, steps } = phases.snapshot();
    expect(main.map((p) => p.name)).toEqual(['node', 'providers']);
    expect(steps[0].ms).toBeGreaterThanOrEqual(15);
    expect(main[1].ms).toBeGreaterThanOrEqual(steps[0].ms);
  });

  it('records a step that failed too', async () => {
    const phases = new StartupPhases();
    await expect(phases.track('pg-boss', () => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    );
    expect(phases.snapshot().steps.map((s) => s.name)).toEqual(['pg-boss']);
  });
});
