import { RequestContext } from '../shared/context';
import { validationError } from '../shared/errors';
import { CAPTURED_PAYMENT_STATUSES } from './payment.entities';

/** The length of a volume bucket: a local hour, day, week (from Monday) or calendar month of the time zone. */
export enum VolumeInterval {
  HOUR = 'HOUR',
  DAY = 'DAY',
  WEEK = 'WEEK',
  MONTH = 'MONTH',
}

/** The most buckets one volume query answers per currency (two years and more of days, 41 days of hours). */
export const MAX_VOLUME_BUCKETS = 1_000;

/** The captured volume of [from, to), in buckets of `interval` aligned in `timeZone` (an IANA name). */
export interface PaymentVolumeQuery {
  from: Date;
  to: Date;
  interval: VolumeInterval;
  timeZone: string;
}

/** What the payments captured in one bucket (or the whole range) add up to, in one currency. */
export interface VolumeFigures {
  currency: string;
  count: number;
  /** Minor units captured. */
  amount: bigint;
  /** Minor units refunded so far of those payments, whenever the refunds were made. */
  refunded: bigint;
}

export interface VolumeBucket extends VolumeFigures {
  /** The bucket's first instant: the start of its hour, day, week or month in the time zone. */
  start: Date;
}

export interface PaymentVolume extends PaymentVolumeQuery {
  /** Every bucket from the one holding `from` to the one holding the last instant before `to`, for each currency with volume; by start, then currency. */
  buckets: VolumeBucket[];
  /** The range's figures per currency with volume, by currency. */
  totals: VolumeFigures[];
}

/** PostgreSQL's date_trunc unit of each interval, the step of its series of points (POINTS) and its longest bucket. */
const UNITS: Readonly<Record<VolumeInterval, { unit: string; step: string; longestHours: number }>> = {
  // A local hour is an hour of real time, except in a zone whose offset moves by half an hour: two at most.
  [VolumeInterval.HOUR]: { unit: 'hour', step: '15 minutes', longestHours: 2 },
  [VolumeInterval.DAY]: { unit: 'day', step: '1 day', longestHours: 25 },
  [VolumeInterval.WEEK]: { unit: 'week', step: '1 week', longestHours: 7 * 24 + 1 },
  [VolumeInterval.MONTH]: { unit: 'month', step: '1 month', longestHours: 31 * 24 + 1 },
};

/**
 * An IANA zone name (`Europe/Paris`, `America/Argentina/Buenos_Aires`, `Etc/GMT+3`) or `UTC`. Only
 * these: PostgreSQL would also read an abbreviation (`CET`, fixed, without the summer time IANA's
 * CET has) or a POSIX offset (`UTC+3`, which means three hours *west*), each a quiet surprise.
 */
const ZONE_NAME = /^(?:UTC|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){1,2})$/;

const invalidZone = () =>
  validationError({
    timeZone: ['must be an IANA time zone name such as Europe/Paris, America/New_York or UTC'],
  });

const tooManyBuckets = (interval: VolumeInterval) =>
  validationError({
    to: [
      `is too far from from: at most ${MAX_VOLUME_BUCKETS.toLocaleString('en-US')} ${interval} buckets; ask for a shorter range or a longer interval`,
    ],
  });

/**
 * The bucket starts: every start of an hour, day, week or month of the zone from the bucket holding
 * `from` to `to`. Days, weeks and months step on the zone's wall clock (a day of 23 or 25 hours is
 * still one day); hours step through real time every 15 minutes (every offset is a multiple of it)
 * so that the hour a clock repeats in autumn is two buckets, as it is two hours of payments.
 * date_trunc then gives each point its bucket's start exactly as it gives a payment's.
 */
const POINTS: Readonly<Record<'real' | 'wall', string>> = {
  real: `SELECT generate_series($3::timestamptz, $4::timestamptz, $9::interval) AS point`,
  wall: `SELECT (local AT TIME ZONE $6) AS point
           FROM generate_series(date_trunc($5, $3::timestamptz AT TIME ZONE $6), $4::timestamptz AT TIME ZONE $6, $9::interval) AS local`,
};

/**
 * One statement: the bucket starts of the range (a row each, without a currency), then the
 * captured payments of the business and mode grouped by bucket and currency (through
 * ix_payments_business_mode_captured: the range's rows only). A range of too many buckets reads no
 * payment (a one-time filter). The rows are made dense here rather than by a cross join in SQL,
 * whose estimate (every start times every currency) would cost the planner's JIT compilation.
 */
const volumeSql = (points: string) => `
WITH points AS (${points}),
buckets AS (
  SELECT DISTINCT date_trunc($5, point, $6) AS start FROM points WHERE date_trunc($5, point, $6) < $4
)
SELECT start, NULL AS currency, 0 AS count, '0' AS amount, '0' AS refunded FROM buckets
UNION ALL
SELECT date_trunc($5, p.captured_at, $6), p.currency, count(*)::int, sum(p.amount)::text, sum(p.amount_refunded)::text
  FROM payments p
 WHERE p.business_id = $1 AND p.livemode = $2 AND p.status = ANY($7::payment_status[])
   AND p.captured_at >= $3 AND p.captured_at < $4
   AND (SELECT count(*) FROM buckets) <= $8
 GROUP BY 1, 2`;

interface VolumeRow {
  start: Date;
  /** Null on a bucket start of the series. */
  currency: string | null;
  count: number;
  amount: string;
  refunded: string;
}

/** PostgreSQL's invalid_parameter_value for a zone it does not know ('time zone "Mars/Base" not recognized'). */
const isUnknownZone = (error: unknown) => {
  const driver = (error as { driverError?: { code?: string; message?: string } } | null)?.driverError;
  return driver?.code === '22023' && /time zone/.test(driver.message ?? '');
};

/**
 * The captured card volume of the context's business and mode: payments at or past capture
 * (COMPLETED, SETTLED, REFUNDED; never PENDING, REQUIRES_ACTION or FAILED), each in the bucket of
 * its `capturedAt`, summed per currency (never across currencies). One SQL statement.
 */
export async function paymentVolume(ctx: RequestContext, query: PaymentVolumeQuery): Promise<PaymentVolume> {
  const { from, to, interval, timeZone } = query;
  if (!(to.getTime() > from.getTime())) throw validationError({ to: ['must be after from'] });
  if (timeZone.length > 64 || !ZONE_NAME.test(timeZone)) throw invalidZone();
  const { unit, step, longestHours } = UNITS[interval];
  // Surely more buckets than allowed even were each as long as a bucket of this interval can be:
  // refused before PostgreSQL is asked for a series that long (the exact count is the statement's).
  if ((to.getTime() - from.getTime()) / (longestHours * 3_600_000) > MAX_VOLUME_BUCKETS + 1)
    throw tooManyBuckets(interval);

  const sql = volumeSql(interval === VolumeInterval.HOUR ? POINTS.real : POINTS.wall);
  const params = [
    ctx.requireBusiness(),
    ctx.livemode,
    from,
    to,
    unit,
    timeZone,
    CAPTURED_PAYMENT_STATUSES,
    MAX_VOLUME_BUCKETS,
    step,
  ];
  const rows = (await ctx.em.query(sql, params).catch((error: unknown) => {
    throw isUnknownZone(error) ? invalidZone() : error;
  })) as VolumeRow[];
  if (rows.filter((row) => row.currency === null).length > MAX_VOLUME_BUCKETS) throw tooManyBuckets(interval);

  // Every start of the series, and any start holding volume (always answered, even one the series missed).
  const starts = [...new Map(rows.map((row) => [row.start.getTime(), row.start])).values()].sort(
    (a, b) => a.getTime() - b.getTime(),
  );
  const captured = rows.filter((row) => row.currency !== null);
  const currencies = [...new Set(captured.map((row) => row.currency!))].sort();
  const figuresOf = new Map(captured.map((row) => [`${row.start.getTime()} ${row.currency}`, row]));
  const buckets: VolumeBucket[] = starts.flatMap((start) =>
    currencies.map((currency) => {
      const row = figuresOf.get(`${start.getTime()} ${currency}`);
      return {
        start,
        currency,
        count: row?.count ?? 0,
        amount: BigInt(row?.amount ?? 0),
        refunded: BigInt(row?.refunded ?? 0),
      };
    }),
  );
  const totals = currencies.map((currency) => {
    const own = captured.filter((row) => row.currency === currency);
    return {
      currency,
      count: own.reduce((sum, row) => sum + row.count, 0),
      amount: own.reduce((sum, row) => sum + BigInt(row.amount), 0n),
      refunded: own.reduce((sum, row) => sum + BigInt(row.refunded), 0n),
    };
  });
  return { from, to, interval, timeZone, buckets, totals };
}
