import type { DataSource } from 'typeorm';
import type { Config } from '../config';
import type { Secrets } from '../secrets';
import type { MailLog } from './mail/port';
import type { ProviderChoice, ProviderKind, ProviderOf } from './registry';
import type { ReconciliationSource } from './reconciliation/port';
import type { InboundWebhooks } from './webhooks/port';

/** What a kind's module builds its providers from: the server's configuration, secrets, database and log. */
export interface ProviderSetting {
  config: Config;
  secrets: Secrets;
  dataSource: DataSource;
  log: MailLog;
}

/**
 * One kind of outside party (`src/providers/<kind>/index.ts`): the providers it has in each mode,
 * chosen once at start from the configuration, and what a caller hears in a mode without one. The
 * kind's port type joins `ProviderChoice` by module augmentation in the same file, so adding a kind
 * is its folder and one line in src/providers/kinds.ts.
 */
export interface ProviderKindModule<K extends ProviderKind = ProviderKind> {
  kind: K;
  /** Why a caller in a mode without a provider of this kind is refused (UNPROCESSABLE), in words for a merchant. */
  missing: string;
  /** Its provider in each mode: `null` where this build has none for the mode. */
  create(setting: ProviderSetting): ProviderChoice[K];
  /** How the domain calls the chosen provider, when not directly (fx: one that does not answer is SERVICE_UNAVAILABLE). */
  guard?(provider: ProviderOf<K>): ProviderOf<K>;
  /**
   * The webhooks its providers send this server, as the configuration enables them (Stripe's with
   * STRIPE_WEBHOOK_SECRET): each is served at `POST /providers/<provider>/webhooks`. A provider
   * serving several kinds (Yellow Card: payouts, collections, rates) declares its webhooks once, in
   * one of them, with the handlers of all its events.
   */
  webhooks?(setting: ProviderSetting): InboundWebhooks[];
  /**
   * The balances of its chosen providers that the daily reconciliation compares with the ledger
   * (docs/live.md, Reconciliation), one source per provider: Stripe's, when it is configured.
   */
  reconciliation?(chosen: ProviderChoice[K]): ReconciliationSource[];
}

/** A kind's module, whichever kind it is (one per kind in src/providers/kinds.ts). */
export type AnyProviderKindModule = { [K in ProviderKind]: ProviderKindModule<K> }[ProviderKind];

/** Declares a provider kind, typed by its entry in ProviderChoice. */
export const defineProviderKind = <K extends ProviderKind>(module: ProviderKindModule<K>): ProviderKindModule<K> =>
  module;
