import DataLoader from 'dataloader';
import { Core } from '../../domain/core';
import { PayoutSchedule, PayoutScheduleRun } from '../../domain/payouts';
import { RequestContext } from '../../domain/shared/context';
import { ListPage } from '../../domain/shared/pagination';
import { alignTo } from '../shared/keyed';

/** One page of one schedule's runs, as `PayoutSchedule.runs(first, after)` asks for it. */
export interface ScheduleRunsKey {
  scheduleId: string;
  first: number | null;
  after: string | null;
}

/** The schedules' per-request DataLoaders. */
export interface ScheduleLoaders {
  /** Schedules of the caller's business and mode (null for any other id); the subscription's re-read. */
  payoutScheduleById: DataLoader<string, PayoutSchedule | null>;
  /** A page of each schedule's runs: every schedule of a list in one statement (one per distinct `first`). */
  runsOfSchedule: DataLoader<ScheduleRunsKey, ListPage<PayoutScheduleRun>, string>;
}

declare module '../shared/loaders' {
  interface Loaders extends ScheduleLoaders {}
}

export function createScheduleLoaders(core: Core, ctx: RequestContext): ScheduleLoaders {
  return {
    payoutScheduleById: new DataLoader(async (ids) =>
      alignTo(ids, await core.payoutSchedules.byIds(ctx, [...ids]), (schedule) => schedule.id),
    ),
    runsOfSchedule: new DataLoader(
      async (keys) => {
        const pages = new Array<ListPage<PayoutScheduleRun>>(keys.length);
        await Promise.all(
          [...new Set(keys.map((key) => key.first))].map(async (first) => {
            const slots = keys.flatMap((key, slot) => (key.first === first ? [slot] : []));
            const found = await core.payoutSchedules.runsOf(ctx, {
              pages: slots.map((slot) => ({ scheduleId: keys[slot].scheduleId, after: keys[slot].after })),
              first,
            });
            slots.forEach((slot, index) => {
              pages[slot] = found[index];
            });
          }),
        );
        return pages;
      },
      { cacheKeyFn: (key) => `${key.scheduleId}|${key.first ?? ''}|${key.after ?? ''}` },
    ),
  };
}
