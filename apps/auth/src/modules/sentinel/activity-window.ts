import { parseIsoInstant, ValidationFailedError } from '@wp/http';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** The time window of an activity query: `occurred_at >= start` and `< end` / `<= end`. */
export interface ActivityWindow {
  start?: Date;
  end?: Date;
  /** True when `end_date` was a calendar date: `end` is the next day's 00:00Z, excluded. */
  endExclusive: boolean;
}

/**
 * Reads `start_date` / `end_date` of the activity endpoints (docs/api.md § Sentinel Passes, "ISO
 * 8601"; docs/auth.md § Activity endpoints):
 * - a calendar date `YYYY-MM-DD` is the whole UTC day: as `start_date` from its 00:00Z, as
 *   `end_date` up to the end of that day (so `start_date=D&end_date=D` is the day D);
 * - a date-time (`YYYY-MM-DDTHH:MM[:SS[.fff]]`) with `Z` or an offset is that instant; without
 *   one it is read as UTC;
 * - other ISO 8601 forms (week or ordinal dates, basic format, a bare year) and impossible dates
 *   are refused.
 * @throws ValidationFailedError 400 naming the parameter; also when start is after end
 */
export function activityWindow(query: { start_date?: string; end_date?: string }): ActivityWindow {
  const start =
    query.start_date === undefined ? undefined : instant(query.start_date, 'start_date');
  const endDay = query.end_date !== undefined && DATE_ONLY.test(query.end_date);
  let end = query.end_date === undefined ? undefined : instant(query.end_date, 'end_date');
  if (end && endDay) end = new Date(end.getTime() + DAY_MS);
  if (start && end && (endDay ? start >= end : start > end)) {
    throw ValidationFailedError.at(
      { parameter: 'start_date' },
      'start_date must not be after end_date.',
    );
  }
  return { start, end, endExclusive: endDay };
}

function instant(value: string, parameter: 'start_date' | 'end_date'): Date {
  const date = parseIsoInstant(value);
  if (date) return date;
  throw ValidationFailedError.at(
    { parameter },
    `${parameter} must be an ISO 8601 date (YYYY-MM-DD, a whole UTC day) or date-time (e.g. 2026-11-23T10:00:00Z).`,
  );
}
