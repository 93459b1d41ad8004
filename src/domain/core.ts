import { DataSource } from 'typeorm';
import { Config } from '../config';
import { Secrets } from '../secrets';
import { Mode } from './shared/modes';
import type { TesseraPubSub } from './events/pubsub';
import { RequestContext, RequestOrigin } from './shared/context';
import { SecretBox } from './shared/crypto';
import { Mailer } from '../providers/mail/port';
import { ProviderRegistry, createProviders } from '../providers/registry';
import { WebhookTargetPolicy } from './shared/url-policy';
import { DomainEventBus } from './shared/domain-events';
import type { AreaContributions, AreaManifest } from './shared/area';

/** What the composition root builds before any area's services: what every area builds on. */
export interface Kernel {
  config: Config;
  secrets: Secrets;
  dataSource: DataSource;
  pubSub: TesseraPubSub;
  /** The domain event bus: the one way areas tell each other what happened (src/domain/shared/domain-events.ts). */
  bus: DomainEventBus;
  /** The providers of each kind and mode (src/providers/registry.ts): `providerFor(ctx, kind)` refuses a mode without one. */
  providers: ProviderRegistry;
  /** Outgoing mail: SMTP, or the sandbox mailbox (src/providers/mail). */
  mailer: Mailer;
  /** Seals and opens secrets kept in the database (webhook secrets, recipients' account numbers, stored answers) with the master key. */
  secretBox: SecretBox;
  /** Which URLs may receive webhooks (and be a return URL): one policy for every area. */
  webhookTargets: WebhookTargetPolicy;
  /** Every contribution of the areas under one name (src/domain/shared/area.ts, AreaContributions), in the areas' order. */
  contributions<Name extends keyof AreaContributions>(name: Name): Array<NonNullable<AreaContributions[Name]>>;
  /** The context of a caller without a credential (yet): sign-in, sign-up, hosted pages, authentication itself. */
  anonymousContext(origin?: RequestOrigin): RequestContext;
}

/**
 * The domain, wired once: both faces, the CLI and the workers use these services. Beyond the
 * kernel, each area adds its own services by module augmentation in its manifest (`src/domain/<area>/index.ts`):
 *
 *   declare module '../core' {
 *     interface Core { payouts: PayoutService }
 *   }
 *
 * and builds them there (`services`), so adding an area edits no line of this file.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Core extends Kernel {}

export interface CoreOptions {
  /** The server's log (one line each); the sandbox mailbox writes every message there. */
  log?: (line: string) => void;
}

/** Builds the kernel, then every area's services, then subscribes every area's subscriptions, in the areas' order. */
export function createCore(
  config: Config,
  secrets: Secrets,
  dataSource: DataSource,
  pubSub: TesseraPubSub,
  areas: ReadonlyArray<AreaManifest<Core>>,
  { log = () => undefined }: CoreOptions = {},
): Core {
  const providers = createProviders({ config, secrets, dataSource, log });
  const kernel: Kernel = {
    config,
    secrets,
    dataSource,
    pubSub,
    bus: new DomainEventBus(),
    providers,
    mailer: providers.inMode('mail', 'test'),
    secretBox: new SecretBox(secrets.masterKey),
    webhookTargets: new WebhookTargetPolicy({ allowPrivateTestTargets: config.webhookAllowPrivateTargets }),
    contributions: (name) => areas.flatMap((area) => area[name] ?? []),
    anonymousContext: (origin) => new RequestContext(dataSource, { kind: 'anonymous' }, null, Mode.TEST, origin),
  };
  const core = buildServices(kernel, areas);
  // The bus tells subscribers of one event in this order (a test clock's slice fires checkout's
  // expiries, then scheduled payouts, then collections' expiries: the order of src/areas.ts).
  for (const area of areas)
    for (const subscription of area.subscriptions?.(core) ?? []) core.bus.subscribe(subscription);
  return core;
}

/**
 * Every area's services, each built once from the ones it reads on `core` (its dependencies), in
 * the order they need: a service is built the first time another's factory reads it. Two areas
 * declaring one name, or factories reading each other in a circle, are refused at start, naming them.
 */
function buildServices(kernel: Kernel, areas: ReadonlyArray<AreaManifest<Core>>): Core {
  const core = kernel as Core & Record<string, unknown>;
  const declaredBy = new Map<string, string>();
  const building: string[] = [];
  for (const area of areas) {
    for (const [name, build] of Object.entries(area.services ?? {}) as Array<[string, (core: Core) => unknown]>) {
      const other = declaredBy.get(name) ?? (name in kernel ? 'the kernel' : undefined);
      if (other) throw new Error(`The ${area.name} area declares the service ${name}, which ${other} declares too`);
      declaredBy.set(name, `the ${area.name} area`);
      Object.defineProperty(core, name, {
        configurable: true,
        enumerable: true,
        get() {
          if (building.includes(name)) {
            throw new Error(
              `Services read each other in a circle: ${[...building.slice(building.indexOf(name)), name].join(' → ')}`,
            );
          }
          building.push(name);
          try {
            const service = build(core);
            Object.defineProperty(core, name, { value: service, enumerable: true, writable: false });
            return service;
          } finally {
            building.pop();
          }
        },
      });
    }
  }
  // Built now, not on first use: a factory's failure stops the start, not a later request.
  for (const name of declaredBy.keys()) void core[name];
  return core;
}
