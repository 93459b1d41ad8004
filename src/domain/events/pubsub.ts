import { createPubSub } from '@graphql-yoga/subscription';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { setMaxListeners } from 'node:events';
import Redis from 'ioredis';

/*
 * Topics published after commit; GraphQL subscriptions listen to them. Each area declares its
 * topics, names and payloads, in its `<area>.topics.ts` (a const of names, and their entries added
 * to TopicPayloads), so this module names no topic and depends on no area.
 */

/**
 * One change of a row with a status: the status it left (null when the change created it) and the
 * properties of its entity the change set: `status` first (a creation sets only that as far as a
 * change goes), then the columns the move wrote; `updatedAt` is left out, as every change sets it.
 */
export interface StatusChange<S extends string> {
  previousStatus: S | null;
  changed: string[];
}

/** `status` and the entity properties of the columns a move wrote (`failure_reason` is `failureReason`). */
export const changedProperties = (columns: Record<string, unknown>): string[] => [
  'status',
  ...Object.keys(columns).map((column) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())),
];

export type TesseraPubSub = ReturnType<typeof createTesseraPubSub>['pubSub'];

/**
 * What each topic carries, by name. Empty here: an area adds its topics by module augmentation, in
 * its `<area>.topics.ts`, keyed by the const that names them on the wire (events.topics.ts):
 *
 *   export const EventTopic = { EVENT: 'EVENT' } as const;
 *   declare module './pubsub' {
 *     interface TopicPayloads { [EventTopic.EVENT]: [PublishedEvent] }
 *   }
 *
 * A topic without an entry cannot be published or subscribed to.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface TopicPayloads {}

export type TopicName = keyof TopicPayloads;

/** TopicPayloads as the map createPubSub takes (a mapped type has the index signature an interface lacks). */
type Topics = { [Name in keyof TopicPayloads]: TopicPayloads[Name] };

/** Who listens: the live GraphQL subscriptions' listeners per topic (a metrics gauge), and how many ever became ready. */
export interface SubscriptionListeners {
  /** Listeners registered now, by topic. */
  active(): Map<string, number>;
  /** Listeners ever registered and able to receive; with Redis, once the channel subscription is confirmed. */
  readyCount(): number;
}

type Listener = Parameters<EventTarget['addEventListener']>[1];

interface ListenerTarget {
  addEventListener(topic: string, listener: Listener): void;
  removeEventListener(topic: string, listener: Listener): void;
}

/** Topics the server itself listens to (not GraphQL subscriptions): not counted as subscriptions. */
const INTERNAL_TOPICS = new Set<string>();

/**
 * Names a topic the server's own processes listen to, not a GraphQL subscription, in its area's
 * `<area>.topics.ts` (`{ SOME_TOPIC: internalTopic('SOME_TOPIC') }`): the subscriptions gauge
 * leaves its listeners out. A listener subscribes by that const, so the mark is made before it.
 */
export function internalTopic<const Name extends string>(name: Name): Name {
  INTERNAL_TOPICS.add(name);
  return name;
}

/** Wraps an event target to keep the listener bookkeeping; `confirm` resolves once a topic's messages can arrive. */
function withListenerCounts<T extends ListenerTarget>(
  target: T,
  confirm: (topic: string) => Promise<unknown> = async () => undefined,
) {
  const active = new Map<string, number>();
  let ready = 0;
  const listeners: SubscriptionListeners = { active: () => new Map(active), readyCount: () => ready };
  const counted: T = {
    ...target,
    addEventListener(topic: string, listener: Listener) {
      target.addEventListener(topic, listener);
      if (INTERNAL_TOPICS.has(topic)) return;
      active.set(topic, (active.get(topic) ?? 0) + 1);
      confirm(topic).then(
        () => {
          ready += 1;
        },
        () => undefined,
      );
    },
    removeEventListener(topic: string, listener: Listener) {
      target.removeEventListener(topic, listener);
      if (INTERNAL_TOPICS.has(topic)) return;
      const left = (active.get(topic) ?? 1) - 1;
      if (left > 0) active.set(topic, left);
      else active.delete(topic);
    },
  };
  return { target: counted, listeners };
}

const reportToStderr = (error: unknown) => console.error('[pubsub]', error instanceof Error ? error.message : error);

/**
 * In-process by default; through Redis pub/sub when `redisUrl` is set, so it spans processes.
 * Publishing runs after a commit, so it must never throw: while Redis is unreachable, messages are
 * dropped and reported to `onError` (the committed event rows stay in the outbox).
 */
export function createTesseraPubSub(
  redisUrl?: string,
  onError: (error: unknown) => void = reportToStderr,
  keyPrefix = 'tessera:',
) {
  if (!redisUrl) {
    const local = new EventTarget();
    // Every subscription is a listener; Node's leak warning (at 11 per topic) does not apply.
    setMaxListeners(0, local);
    const { target, listeners } = withListenerCounts({
      addEventListener: (topic: string, listener: Listener) => local.addEventListener(topic, listener),
      removeEventListener: (topic: string, listener: Listener) => local.removeEventListener(topic, listener),
      dispatchEvent: (event: Event) => local.dispatchEvent(event),
    });
    return {
      pubSub: Object.assign(createPubSub<Topics>({ eventTarget: target }), { listeners }),
      close: async () => undefined,
    };
  }
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  // No ready check (INFO) on the subscriber: a SUBSCRIBE sent while it connects would make the INFO
  // a refused command and the connection drop with its subscriptions (redis/ioredis#2037). Its
  // readiness is the SUBSCRIBE reply, which `withListenerCounts` waits for below.
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3, enableReadyCheck: false });
  publishClient.on('error', onError);
  subscribeClient.on('error', onError);
  const redisTarget = createRedisEventTarget({ publishClient, subscribeClient });
  // Channels carry REDIS_KEY_PREFIX, so deployments (or test runs) sharing one Redis never hear each other.
  const channel = (topic: string) => `${keyPrefix}${topic}`;
  const prefixed: typeof redisTarget = {
    ...redisTarget,
    addEventListener: (topic, listener) => redisTarget.addEventListener(channel(topic), listener),
    removeEventListener: (topic, listener) => redisTarget.removeEventListener(channel(topic), listener),
  };
  // The library subscribes to a topic's channel without waiting; the same SUBSCRIBE again is
  // answered after it, so its reply says the channel is live.
  const { target: countedTarget, listeners } = withListenerCounts(prefixed, (topic) =>
    subscribeClient.subscribe(channel(topic)),
  );
  const eventTarget: typeof redisTarget = {
    ...countedTarget,
    // The library's own dispatch leaves the publish promise unhandled, which would end the process.
    dispatchEvent(event) {
      publishClient.publish(channel(event.type), JSON.stringify(event.detail)).catch(onError);
      return true;
    },
  };
  const pubSub = Object.assign(createPubSub<Topics>({ eventTarget }), { listeners });
  return {
    pubSub,
    close: async () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
