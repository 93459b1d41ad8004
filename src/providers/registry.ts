import { DataSource } from 'typeorm';
import { Config } from '../config';
import { DomainError, ErrorCode } from '../domain/shared/errors';
import { Secrets } from '../secrets';
import { CardAcquirer } from './card-acquirer/port';
import { CollectionRail } from './collection-rail/port';
import { SandboxCollectionRail } from './collection-rail/sandbox';
import { SandboxCardAcquirer } from './card-acquirer/sandbox';
import { FxProvider } from './fx/port';
import { ReachableFx } from './fx/reachable';
import { SandboxFxProvider } from './fx/sandbox';
import { createMailer } from './mail';
import { MailLog, Mailer } from './mail/port';
import { PayoutRail } from './payout-rail/port';
import { SandboxPayoutRail } from './payout-rail/sandbox';
import { SanctionsScreening } from './screening/port';
import { SandboxScreening } from './screening/sandbox';
import { KycProvider } from './kyc/port';
import { SandboxKycProvider } from './kyc/sandbox';
import { TreasuryRail } from './treasury-rail/port';
import { SandboxTreasuryRail } from './treasury-rail/sandbox';

/**
 * The provider of each kind in each mode. `null`: this build has no real provider of that kind
 * for the mode, and the mode is refused (see `providerFor`). Each kind lives in
 * `src/providers/<kind>/` as `port.ts` (the interface the domain calls) and `sandbox.ts` (no
 * network, no money; its magic values are in docs/sandbox.md), plus its real implementations.
 */
export interface ProviderChoice {
  'card-acquirer': { test: CardAcquirer; live: CardAcquirer | null };
  /**
   * Mail is chosen once for the server, not per mode: SMTP when MAIL_SMTP_URL is set (a production
   * start requires it, src/config.ts), otherwise the sandbox mailbox.
   */
  mail: { test: Mailer; live: Mailer };
  /** Payout rails (bank transfer, mobile money, crypto): the sandbox rail in test mode, none in live yet. */
  'payout-rail': { test: PayoutRail; live: PayoutRail | null };
  /** Collection rails (bank transfer, mobile money, EFT in): the sandbox rail in test mode, none in live yet. */
  'collection-rail': { test: CollectionRail; live: CollectionRail | null };
  /** Exchange rates and conversion fees: the sandbox's fixed rates in test mode, none in live yet. */
  fx: { test: FxProvider; live: FxProvider | null };
  /** Sanctions screening of payout recipients: the sandbox list in test mode, none in live yet. */
  screening: { test: SanctionsScreening; live: SanctionsScreening | null };
  /** Identity verification of treasury end-users: the sandbox provider (decided by the tester) in test mode, none in live yet. */
  kyc: { test: KycProvider; live: KycProvider | null };
  /** The treasury banking partner (end-user deposit accounts, treasury payouts): the sandbox rail in test mode, none in live yet. */
  'treasury-rail': { test: TreasuryRail; live: TreasuryRail | null };
}

export type ProviderKind = keyof ProviderChoice;
export type ProviderOf<K extends ProviderKind> = NonNullable<ProviderChoice[K]['test' | 'live']>;

/** What a caller in a mode is told when the build has no provider of the kind for that mode. */
const NO_PROVIDER: Record<ProviderKind, string> = {
  'card-acquirer':
    'No card acquirer is configured for live mode, so live card payments cannot be taken; use test credentials in the sandbox',
  mail: 'No mail provider is configured for live mode',
  'payout-rail':
    'No payout rail is configured for live mode, so live payouts cannot be sent; use test credentials in the sandbox',
  'collection-rail':
    'No collection rail is configured for live mode, so live collections cannot be taken; use test credentials in the sandbox',
  fx: 'No exchange-rate provider is configured for live mode; use test credentials in the sandbox',
  screening:
    'No sanctions-screening provider is configured for live mode, so live recipients cannot be screened; use test credentials in the sandbox',
  kyc: 'No KYC provider is configured for live mode, so live end-users cannot be verified; use test credentials in the sandbox',
  'treasury-rail':
    'No treasury banking partner is configured for live mode, so live treasury wallets and payouts are not available; use test credentials in the sandbox',
};

/** The providers of the server, chosen once at start; the only place that decides which one a mode gets. */
export class ProviderRegistry {
  constructor(private readonly choice: ProviderChoice) {}

  /**
   * The provider of `kind` for the context's mode. A mode without one (live card acquiring in this
   * build) is refused here, with UNPROCESSABLE, before anything is written: the merchant hears it
   * when asking, not the payer on the page.
   */
  providerFor<K extends ProviderKind>(ctx: { livemode: boolean }, kind: K): ProviderOf<K> {
    const provider = this.inMode(kind, ctx.livemode ? 'live' : 'test');
    if (!provider) throw new DomainError(ErrorCode.UNPROCESSABLE, NO_PROVIDER[kind]);
    return kind === 'fx' ? this.reachable(provider as FxProvider) : provider;
  }

  /** FX providers as the domain calls them: one that does not answer is SERVICE_UNAVAILABLE (ReachableFx). */
  private readonly reachableFx = new Map<FxProvider, ReachableFx>();

  private reachable(provider: FxProvider): ReachableFx {
    let guarded = this.reachableFx.get(provider);
    if (!guarded) this.reachableFx.set(provider, (guarded = new ReachableFx(provider)));
    return guarded;
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
}

/** The providers this build has: the sandbox acquirer in test mode and none in live; SMTP or the sandbox mailbox. */
export function createProviders(
  config: Pick<Config, 'mailSmtpUrl' | 'mailFrom' | 'payoutSandboxSettleMs'>,
  secrets: Pick<Secrets, 'masterKey'>,
  dataSource: DataSource,
  log: MailLog,
): ProviderRegistry {
  const mailer = createMailer(config, dataSource, log);
  return new ProviderRegistry({
    'card-acquirer': { test: new SandboxCardAcquirer(secrets.masterKey), live: null },
    mail: { test: mailer, live: mailer },
    'payout-rail': { test: new SandboxPayoutRail(config.payoutSandboxSettleMs), live: null },
    'collection-rail': { test: new SandboxCollectionRail(), live: null },
    fx: { test: new SandboxFxProvider(), live: null },
    screening: { test: new SandboxScreening(), live: null },
    kyc: { test: new SandboxKycProvider(), live: null },
    'treasury-rail': { test: new SandboxTreasuryRail(config.payoutSandboxSettleMs), live: null },
  });
}
