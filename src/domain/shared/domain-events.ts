import { RequestContext } from './context';

/**
 * The events areas tell each other of, by name. Empty here so that shared/ names no area: the
 * publishing area adds its events by module augmentation, in its `<area>.events.ts`:
 *
 *   declare module '../shared/domain-events' {
 *     interface DomainEvents { 'payout.moved': PayoutMoved }
 *   }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DomainEvents {}

export type DomainEventName = keyof DomainEvents;

/**
 * When a subscriber runs. `in-transaction`: inside `publish`, in the publisher's transaction and
 * context, in subscription order; what it writes commits with the publisher's change, and a throw
 * rolls the whole change back (a veto). `after-commit`: once the publisher's outermost transaction
 * has committed, never when it rolls back, with the same context outside any transaction.
 */
export type Phase = 'in-transaction' | 'after-commit';

/** What an area declares to hear an event (in its `<area>.subscriptions.ts`); `name` is unique on the bus. */
export interface Subscription<N extends DomainEventName = DomainEventName> {
  event: N;
  phase: Phase;
  name: string;
  handle(ctx: RequestContext, payload: DomainEvents[N]): Promise<void> | void;
}

/** One subscription to whichever event it names: lets an area return its subscriptions as one list. */
export type AnySubscription = { [N in DomainEventName]: Subscription<N> }[DomainEventName];

/**
 * The one way areas reach each other: a publisher tells the bus what happened, in its transaction,
 * and never knows who hears it. The composition root subscribes every area's declarations once.
 */
export class DomainEventBus {
  private readonly subscriptions = new Map<DomainEventName, AnySubscription[]>();
  private readonly names = new Set<string>();

  subscribe(subscription: AnySubscription): void {
    if (this.names.has(subscription.name)) throw new Error(`Two subscriptions are named ${subscription.name}`);
    this.names.add(subscription.name);
    const list = this.subscriptions.get(subscription.event) ?? [];
    list.push(subscription);
    this.subscriptions.set(subscription.event, list);
  }

  /**
   * Tells the event's subscribers, in subscription order: the in-transaction ones now, in `ctx`
   * (awaited one after the other: a throw stops the rest and rolls the transaction back), the
   * after-commit ones queued on the transaction. Published outside a transaction (the test clock's
   * slices, whose work opens its own; a command checked before its transaction), in-transaction
   * subscribers run in the caller's flow and after-commit ones are refused: no commit will come.
   */
  async publish<N extends DomainEventName>(ctx: RequestContext, event: N, payload: DomainEvents[N]): Promise<void> {
    for (const subscription of this.subscribersOf(event)) {
      if (subscription.phase === 'in-transaction') await subscription.handle(ctx, payload);
      else this.afterCommit(ctx, event, subscription, payload);
    }
  }

  /**
   * `publish` for a publisher that does not wait (a statement written behind, RequestContext.writeBehind):
   * its in-transaction subscribers must not wait either, so one that answers a promise is a mistake, refused.
   */
  publishSync<N extends DomainEventName>(ctx: RequestContext, event: N, payload: DomainEvents[N]): void {
    for (const subscription of this.subscribersOf(event)) {
      if (subscription.phase === 'after-commit') {
        this.afterCommit(ctx, event, subscription, payload);
        continue;
      }
      const answer = subscription.handle(ctx, payload);
      if (answer instanceof Promise) {
        answer.catch(() => undefined);
        throw new Error(`${subscription.name} waits, but ${event} is published without waiting`);
      }
    }
  }

  private subscribersOf<N extends DomainEventName>(event: N): Array<Subscription<N>> {
    return (this.subscriptions.get(event) ?? []) as Array<Subscription<N>>;
  }

  private afterCommit<N extends DomainEventName>(
    ctx: RequestContext,
    event: N,
    subscription: Subscription<N>,
    payload: DomainEvents[N],
  ): void {
    if (!ctx.inTransaction)
      throw new Error(`${event} has an after-commit subscriber and was published outside a transaction`);
    const after = ctx.withoutTransaction();
    ctx.afterCommit(() => subscription.handle(after, payload));
  }
}
