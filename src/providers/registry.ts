import { DomainError, ErrorCode } from '../domain/shared/errors';
import type { ProviderKindModule, ProviderSetting } from './kind';
import { PROVIDER_KINDS } from './kinds';
import type { ReconciliationSource } from './reconciliation/port';
import type { InboundWebhooks } from './webhooks/port';

/**
 * The provider of each kind in each mode. `null`: this build has no real provider of that kind
 * for the mode, and the mode is refused (see `providerFor`). Each kind lives in
 * `src/providers/<kind>/`: `port.ts` (the interface the domain calls), `sandbox.ts` (no network,
 * no money; its magic values are in docs/sandbox.md), its real implementations, and `index.ts`,
 * which chooses among them from the configuration and adds the kind's entry here by module
 * augmentation (`declare module '../registry'`); src/providers/kinds.ts lists the kinds.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ProviderChoice {}

export type ProviderKind = keyof ProviderChoice;
export type ProviderOf<K extends ProviderKind> = NonNullable<ProviderChoice[K]['test' | 'live']>;

/** The providers of the server, chosen once at start; the only place that decides which one a mode gets. */
export class ProviderRegistry {
  constructor(
    private readonly choice: ProviderChoice,
    private readonly inbound: ReadonlyArray<InboundWebhooks> = [],
  ) {}

  /**
   * The provider of `kind` for the context's mode. A mode without one (live card acquiring in this
   * build) is refused here, with UNPROCESSABLE, before anything is written: the merchant hears it
   * when asking, not the payer on the page.
   */
  providerFor<K extends ProviderKind>(ctx: { livemode: boolean }, kind: K): ProviderOf<K> {
    const provider = this.inMode(kind, ctx.livemode ? 'live' : 'test') as ProviderOf<K> | null;
    const module = moduleOf(kind);
    if (!provider) throw new DomainError(ErrorCode.UNPROCESSABLE, module.missing);
    return module.guard ? module.guard(provider) : provider;
  }

  /**
   * The provider of `kind` for a mode, or null: for work outside a request (the recovery sweep
   * over stored payments of both modes) that decides itself what having no provider means.
   */
  inMode<K extends ProviderKind, M extends 'test' | 'live'>(kind: K, mode: M): ProviderChoice[K][M] {
    return this.choice[kind][mode];
  }

  /** Both modes' providers of `kind`. */
  modesOf<K extends ProviderKind>(kind: K): ProviderChoice[K] {
    return this.choice[kind];
  }

  /** The providers whose webhooks this server receives (each at `POST /providers/<provider>/webhooks`). */
  inboundWebhooks(): ReadonlyArray<InboundWebhooks> {
    return this.inbound;
  }

  /** The inbound webhooks of `provider` (the URL's segment), or undefined when the server receives none from it. */
  inboundWebhooksOf(provider: string): InboundWebhooks | undefined {
    return this.inbound.find((webhooks) => webhooks.provider === provider);
  }

  /** Every kind's reconciliation sources, in the order of src/providers/kinds.ts; a provider declared twice counts once. */
  reconciliationSources(): ReconciliationSource[] {
    const sources = new Map<string, ReconciliationSource>();
    for (const module of PROVIDER_KINDS as ReadonlyArray<ProviderKindModule>) {
      for (const source of module.reconciliation?.(this.choice[module.kind]) ?? [])
        if (!sources.has(source.provider)) sources.set(source.provider, source);
    }
    return [...sources.values()];
  }
}

const moduleOf = <K extends ProviderKind>(kind: K) =>
  PROVIDER_KINDS.find((module) => module.kind === kind) as unknown as ProviderKindModule<K>;

/** The providers this build has, each kind's chosen by its module (src/providers/kinds.ts) from the configuration. */
export function createProviders(setting: ProviderSetting): ProviderRegistry {
  return new ProviderRegistry(
    Object.fromEntries(
      PROVIDER_KINDS.map((module) => [module.kind, module.create(setting)]),
    ) as unknown as ProviderChoice,
    inboundWebhooksOf(setting),
  );
}

/** Every kind's inbound webhooks; a provider declared twice stops the start, naming it and its kinds. */
function inboundWebhooksOf(setting: ProviderSetting): InboundWebhooks[] {
  const declaredBy = new Map<string, string>();
  return PROVIDER_KINDS.flatMap((module) =>
    (module.webhooks?.(setting) ?? []).map((webhooks) => {
      if (!/^[a-z0-9-]+$/.test(webhooks.provider))
        throw new Error(
          `The ${module.kind} kind declares webhooks of "${webhooks.provider}": a provider's name is a URL segment (a-z, 0-9, -)`,
        );
      const other = declaredBy.get(webhooks.provider);
      if (other)
        throw new Error(`The ${module.kind} and ${other} kinds both declare the webhooks of ${webhooks.provider}`);
      declaredBy.set(webhooks.provider, module.kind);
      return webhooks;
    }),
  );
}
