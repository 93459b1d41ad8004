import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import {
  MAX_VOLUME_BUCKETS,
  VolumeBucket,
  VolumeFigures,
  VolumeInterval,
  PaymentVolume as VolumeRow,
} from '../../domain/payments';
import { Money } from '../shared/money.type';

registerEnumType(VolumeInterval, {
  name: 'VolumeInterval',
  description: "The length of a payment volume bucket, aligned on the wall clock of the query's time zone",
  valuesConfig: {
    HOUR: { description: 'An hour, from minute 0 (the hour a clock repeats in autumn is two buckets)' },
    DAY: { description: 'A day, from midnight (a day that changes the clock has 23 or 25 hours)' },
    WEEK: { description: 'A week, from Monday midnight (ISO 8601 weeks)' },
    MONTH: { description: 'A calendar month, from the first at midnight' },
  },
});

@ObjectType({ description: 'Captured card volume in one currency over the whole range' })
export class PaymentVolumeTotal {
  @Field({ description: 'ISO 4217 code, upper case: amounts are never added across currencies' }) currency: string;
  @Field(() => Int, { description: 'How many payments were captured' }) count: number;
  @Field(() => Money, { description: 'What they captured' }) amount: Money;
  @Field(() => Money, {
    description:
      'What has been refunded of those payments so far, whenever the refunds were made (disputes not included)',
  })
  refunded: Money;

  static from(figures: VolumeFigures): PaymentVolumeTotal {
    return Object.assign(new PaymentVolumeTotal(), {
      currency: figures.currency,
      count: figures.count,
      amount: Money.of(figures.amount, figures.currency),
      refunded: Money.of(figures.refunded, figures.currency),
    });
  }
}

@ObjectType({ description: 'Captured card volume in one currency in one bucket (an hour, day, week or month)' })
export class PaymentVolumeBucket {
  @Field({
    description:
      "The bucket's first instant (ISO 8601, UTC): the start of its hour, day, week or month in the time zone. The first bucket may start before from; only payments captured in [from, to) count",
  })
  start: Date;
  @Field({ description: 'ISO 4217 code, upper case' }) currency: string;
  @Field(() => Int, { description: 'How many payments were captured in the bucket (0 for none)' }) count: number;
  @Field(() => Money, { description: 'What they captured' }) amount: Money;
  @Field(() => Money, {
    description:
      'What has been refunded of those payments so far, whenever the refunds were made (disputes not included)',
  })
  refunded: Money;

  static from(bucket: VolumeBucket): PaymentVolumeBucket {
    return Object.assign(new PaymentVolumeBucket(), PaymentVolumeTotal.from(bucket), { start: bucket.start });
  }
}

@ObjectType({
  description:
    'Captured card volume of the active business and mode (payments COMPLETED, SETTLED or REFUNDED, by capturedAt), per currency, in buckets for a chart',
})
export class PaymentVolume {
  @Field({ description: 'The start of the range, as asked (inclusive)' }) from: Date;
  @Field({ description: 'The end of the range, as asked (exclusive)' }) to: Date;
  @Field(() => VolumeInterval, { description: 'The length of each bucket' }) interval: VolumeInterval;
  @Field({ description: 'The IANA time zone the buckets are aligned in, as asked' }) timeZone: string;
  @Field(() => [PaymentVolumeBucket], {
    description: `Dense: for each currency with volume in the range, every bucket from the one holding from to the one holding the last instant before to, with zeros where nothing was captured; ordered by start, then currency. Empty when nothing was captured. At most ${MAX_VOLUME_BUCKETS.toLocaleString('en-US')} buckets per currency`,
  })
  buckets: PaymentVolumeBucket[];
  @Field(() => [PaymentVolumeTotal], {
    description: 'The whole range per currency with volume (the sum of its buckets), by currency',
  })
  totals: PaymentVolumeTotal[];

  static from(volume: VolumeRow): PaymentVolume {
    return Object.assign(new PaymentVolume(), {
      from: volume.from,
      to: volume.to,
      interval: volume.interval,
      timeZone: volume.timeZone,
      buckets: volume.buckets.map(PaymentVolumeBucket.from),
      totals: volume.totals.map(PaymentVolumeTotal.from),
    });
  }
}
