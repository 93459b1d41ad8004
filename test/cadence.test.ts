import {
  CadenceRule,
  ScheduleCadence,
  firstOccurrence,
  occurrenceAfter,
  occurrenceAtOrAfter,
} from '../src/domain/payouts/cadence';
import { withinLocalCap, withinUsdCap } from '../src/domain/payouts/schedule-caps';
import { parseDecimal } from '../src/domain/shared/decimal';

const at = (iso: string) => new Date(iso);
const rule = (cadence: ScheduleCadence, anchor: string, dayOfMonth: number | null = null): CadenceRule => ({
  cadence,
  dayOfMonth,
  anchorAt: at(anchor),
});
/** The first `count` occurrences of a series, as ISO strings. */
const series = (cadenceRule: CadenceRule, count: number) => {
  const out: string[] = [];
  let next: Date | null = firstOccurrence(cadenceRule);
  while (next && out.length < count) {
    out.push(next.toISOString());
    next = occurrenceAfter(cadenceRule, next);
  }
  return out;
};

/** Next-run arithmetic in UTC (docs/schedules.md, Cadence rules). */
describe('cadence arithmetic', () => {
  test('ONCE runs at its start and never again', () => {
    const once = rule(ScheduleCadence.ONCE, '2027-01-31T09:30:00.000Z');
    expect(series(once, 5)).toEqual(['2027-01-31T09:30:00.000Z']);
    expect(occurrenceAtOrAfter(once, at('2027-02-01T00:00:00.000Z'))).toBeNull();
  });

  test('WEEKLY adds exactly 7 days in UTC, across a month and a year boundary', () => {
    expect(series(rule(ScheduleCadence.WEEKLY, '2026-12-24T23:59:59.000Z'), 4)).toEqual([
      '2026-12-24T23:59:59.000Z',
      '2026-12-31T23:59:59.000Z',
      '2027-01-07T23:59:59.000Z',
      '2027-01-14T23:59:59.000Z',
    ]);
  });

  test('WEEKLY keeps its UTC time across the dates European and US clocks change', () => {
    expect(series(rule(ScheduleCadence.WEEKLY, '2027-03-24T12:00:00.000Z'), 2)).toEqual([
      '2027-03-24T12:00:00.000Z',
      '2027-03-31T12:00:00.000Z',
    ]);
  });

  test('BIWEEKLY adds exactly 14 days, across February of a leap year', () => {
    expect(series(rule(ScheduleCadence.BIWEEKLY, '2028-02-20T08:00:00.000Z'), 3)).toEqual([
      '2028-02-20T08:00:00.000Z',
      '2028-03-05T08:00:00.000Z',
      '2028-03-19T08:00:00.000Z',
    ]);
  });

  test('MONTHLY runs on dayOfMonth at the start time of day, across a year boundary', () => {
    expect(series(rule(ScheduleCadence.MONTHLY, '2026-11-10T06:15:00.000Z', 15), 4)).toEqual([
      '2026-11-15T06:15:00.000Z',
      '2026-12-15T06:15:00.000Z',
      '2027-01-15T06:15:00.000Z',
      '2027-02-15T06:15:00.000Z',
    ]);
  });

  test('MONTHLY with a start after the 28th begins the next month (dayOfMonth 28 exists in every month)', () => {
    expect(series(rule(ScheduleCadence.MONTHLY, '2027-01-30T10:00:00.000Z', 28), 3)).toEqual([
      '2027-02-28T10:00:00.000Z',
      '2027-03-28T10:00:00.000Z',
      '2027-04-28T10:00:00.000Z',
    ]);
    expect(series(rule(ScheduleCadence.MONTHLY, '2027-12-31T23:00:00.000Z', 1), 2)).toEqual([
      '2028-01-01T23:00:00.000Z',
      '2028-02-01T23:00:00.000Z',
    ]);
  });

  test('MONTHLY starting on dayOfMonth itself runs that day; a later time of day the same day is the anchor', () => {
    expect(firstOccurrence(rule(ScheduleCadence.MONTHLY, '2027-05-28T09:00:00.000Z', 28)).toISOString()).toBe(
      '2027-05-28T09:00:00.000Z',
    );
    expect(firstOccurrence(rule(ScheduleCadence.MONTHLY, '2027-05-29T09:00:00.000Z', 28)).toISOString()).toBe(
      '2027-06-28T09:00:00.000Z',
    );
  });

  test('the next occurrence at or after a moment keeps the series (resume: no shift, no burst)', () => {
    const weekly = rule(ScheduleCadence.WEEKLY, '2027-01-01T12:00:00.000Z');
    expect(occurrenceAtOrAfter(weekly, at('2027-02-10T00:00:00.000Z'))!.toISOString()).toBe('2027-02-12T12:00:00.000Z');
    expect(occurrenceAtOrAfter(weekly, at('2027-01-08T12:00:00.000Z'))!.toISOString()).toBe('2027-01-08T12:00:00.000Z');
    const monthly = rule(ScheduleCadence.MONTHLY, '2027-01-20T12:00:00.000Z', 5);
    expect(occurrenceAtOrAfter(monthly, at('2027-07-05T12:00:00.001Z'))!.toISOString()).toBe(
      '2027-08-05T12:00:00.000Z',
    );
    expect(occurrenceAtOrAfter(monthly, at('2026-01-01T00:00:00.000Z'))!.toISOString()).toBe(
      '2027-02-05T12:00:00.000Z',
    );
  });
});

/** Caps compared exactly (docs/schedules.md, Caps). */
describe('cap arithmetic', () => {
  test('a local cap compares destination minor units with the cap text exactly', () => {
    expect(withinLocalCap(1_542_250n, 'NGN', '15422.5')).toBe(true);
    expect(withinLocalCap(1_542_251n, 'NGN', '15422.50')).toBe(false);
    expect(withinLocalCap(1_000n, 'UGX', '1000.00000001')).toBe(true);
  });

  test('the USD cap converts at the given mid rate, exactly', () => {
    const ngnToUsd = parseDecimal('0.00064516');
    expect(withinUsdCap(1_550_000n, 'NGN', ngnToUsd, '10.00')).toBe(true); // 15,500.00 NGN = 9.999980 USD
    expect(withinUsdCap(1_550_100n, 'NGN', ngnToUsd, '10.00')).toBe(false); // 15,501.00 NGN = 10.0006 USD
    expect(withinUsdCap(1000n, 'USD', parseDecimal('1.00000000'), '10')).toBe(true);
    expect(withinUsdCap(1001n, 'USD', parseDecimal('1.00000000'), '10')).toBe(false);
  });
});
