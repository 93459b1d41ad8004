/**
 * When a payout schedule runs: pure arithmetic in UTC, no clock and no database (docs/schedules.md,
 * Cadence rules). A schedule's occurrences form a series anchored at its `startAt`:
 * - ONCE: the anchor only;
 * - WEEKLY / BIWEEKLY: anchor + k × 7 (14) days, k ≥ 0 (same weekday and time of day, in UTC);
 * - MONTHLY: day `dayOfMonth` (1 to 28, so every month has it) of each month at the anchor's UTC
 *   time of day, the first being the first such instant on or after the anchor.
 * UTC has no daylight-saving shifts, so "+7 days" is always 604,800 seconds.
 */
export enum ScheduleCadence {
  ONCE = 'ONCE',
  WEEKLY = 'WEEKLY',
  BIWEEKLY = 'BIWEEKLY',
  MONTHLY = 'MONTHLY',
}

export const MIN_DAY_OF_MONTH = 1;
export const MAX_DAY_OF_MONTH = 28;

export interface CadenceRule {
  cadence: ScheduleCadence;
  /** 1 to 28 for MONTHLY; null otherwise. */
  dayOfMonth: number | null;
  /** The series' anchor: the schedule's `startAt`. */
  anchorAt: Date;
}

const DAY_MS = 86_400_000;
const PERIOD_MS: Partial<Record<ScheduleCadence, number>> = {
  [ScheduleCadence.WEEKLY]: 7 * DAY_MS,
  [ScheduleCadence.BIWEEKLY]: 14 * DAY_MS,
};

/** The MONTHLY occurrence `months` months after the anchor's month (it may fall before the anchor when months is 0). */
function monthlyAt(rule: CadenceRule, months: number): Date {
  const anchor = rule.anchorAt;
  return new Date(
    Date.UTC(
      anchor.getUTCFullYear(),
      anchor.getUTCMonth() + months,
      rule.dayOfMonth!,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

function assertRule(rule: CadenceRule): void {
  const monthly = rule.cadence === ScheduleCadence.MONTHLY;
  const day = rule.dayOfMonth;
  if (monthly && (day === null || !Number.isInteger(day) || day < MIN_DAY_OF_MONTH || day > MAX_DAY_OF_MONTH)) {
    throw new Error(`A MONTHLY cadence needs a dayOfMonth from ${MIN_DAY_OF_MONTH} to ${MAX_DAY_OF_MONTH}`);
  }
  if (!monthly && day !== null) throw new Error(`dayOfMonth is for MONTHLY only, not ${rule.cadence}`);
}

/**
 * The first occurrence of the series at or after `at` (never before the anchor); null when there is
 * none (a ONCE schedule whose one occurrence is before `at`).
 */
export function occurrenceAtOrAfter(rule: CadenceRule, at: Date): Date | null {
  assertRule(rule);
  const anchor = rule.anchorAt.getTime();
  const from = Math.max(at.getTime(), anchor);
  const period = PERIOD_MS[rule.cadence];
  if (rule.cadence === ScheduleCadence.ONCE) return anchor >= at.getTime() ? new Date(anchor) : null;
  if (period !== undefined) return new Date(anchor + Math.ceil((from - anchor) / period) * period);
  const target = new Date(from);
  let months =
    (target.getUTCFullYear() - rule.anchorAt.getUTCFullYear()) * 12 +
    target.getUTCMonth() -
    rule.anchorAt.getUTCMonth() -
    1;
  for (months = Math.max(months, 0); ; months += 1) {
    const candidate = monthlyAt(rule, months);
    if (candidate.getTime() >= from) return candidate;
  }
}

/** The schedule's first run: the first occurrence on or after its start. */
export const firstOccurrence = (rule: CadenceRule): Date => occurrenceAtOrAfter(rule, rule.anchorAt)!;

/** The occurrence after `previous` (an occurrence of the series); null for ONCE. */
export const occurrenceAfter = (rule: CadenceRule, previous: Date): Date | null =>
  occurrenceAtOrAfter(rule, new Date(previous.getTime() + 1));
