import { ValidationFailedError } from '@wp/http';
import { activityWindow } from './activity-window.js';

describe('activityWindow (start_date / end_date of the activity endpoints)', () => {
  it('reads a calendar date as the whole UTC day, end excluded at the next midnight', () => {
    expect(activityWindow({ start_date: '2026-11-23', end_date: '2026-11-23' })).toEqual({
      start: new Date('2026-11-23T00:00:00Z'),
      end: new Date('2026-11-24T00:00:00Z'),
      endExclusive: true,
    });
  });

  it('reads a date-time with Z or an offset as that instant, and one without as UTC', () => {
    expect(activityWindow({ start_date: '2026-11-23T10:00:00+02:00' }).start).toEqual(
      new Date('2026-11-23T08:00:00Z'),
    );
    expect(activityWindow({ end_date: '2026-11-23T10:00:00.250' })).toEqual({
      start: undefined,
      end: new Date('2026-11-23T10:00:00.250Z'),
      endExclusive: false,
    });
    expect(activityWindow({}).endExclusive).toBe(false);
  });

  it.each(['2026-W47', '2026-327', '20261123', '2026', '2026-02-30', '2026-11-23T25:00:00Z'])(
    'refuses %s with a 400 naming the parameter',
    (value) => {
      for (const parameter of ['start_date', 'end_date'] as const) {
        try {
          activityWindow({ [parameter]: value });
          throw new Error('accepted');
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationFailedError);
          expect(JSON.stringify(error)).toContain(parameter);
        }
      }
    },
  );

  it('refuses a start after the end; a one-day window of the same date is fine', () => {
    expect(() =>
      activityWindow({ start_date: '2026-11-24', end_date: '2026-11-23T23:00:00Z' }),
    ).toThrow(ValidationFailedError);
    expect(() =>
      activityWindow({ start_date: '2026-11-23T12:00:00Z', end_date: '2026-11-23' }),
    ).not.toThrow();
  });
});
