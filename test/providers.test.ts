import { DomainError, ErrorCode } from '../src/domain/shared/errors';
import { SandboxCardAcquirer } from '../src/providers/card-acquirer/sandbox';
import { Mailer } from '../src/providers/mail/port';
import { SandboxFxProvider } from '../src/providers/fx/sandbox';
import { SandboxPayoutRail } from '../src/providers/payout-rail/sandbox';
import { SandboxCollectionRail } from '../src/providers/collection-rail/sandbox';
import { ProviderRegistry, createProviders } from '../src/providers/registry';
import { PROVIDER_KINDS } from '../src/providers/kinds';
import { loadConfig } from '../src/config';
import type { DataSource } from 'typeorm';
import { SandboxScreening } from '../src/providers/screening/sandbox';
import { SandboxKycProvider } from '../src/providers/kyc/sandbox';
import { SandboxTreasuryRail } from '../src/providers/treasury-rail/sandbox';

/** src/providers/registry.ts: one place decides which provider a mode gets and refuses a mode without one. */
describe('providerFor(ctx, kind)', () => {
  const acquirer = new SandboxCardAcquirer('a-master-key-for-tests');
  const mailer: Mailer = { name: 'memory', send: async () => undefined, close: async () => undefined };
  const providers = new ProviderRegistry({
    'card-acquirer': { test: acquirer, live: null },
    mail: { test: mailer, live: mailer },
    'payout-rail': { test: new SandboxPayoutRail(2000), live: null },
    'collection-rail': { test: new SandboxCollectionRail(), live: null },
    fx: { test: new SandboxFxProvider(), live: null },
    screening: { test: new SandboxScreening(), live: null },
    kyc: { test: new SandboxKycProvider(), live: null },
    'treasury-rail': { test: new SandboxTreasuryRail(2000), live: null },
  });
  const testMode = { livemode: false };
  const liveMode = { livemode: true };

  test('test mode gets the sandbox acquirer', () => {
    expect(providers.providerFor(testMode, 'card-acquirer')).toBe(acquirer);
  });

  test('live mode without a live acquirer is refused with UNPROCESSABLE and the documented message', () => {
    let refusal: unknown;
    try {
      providers.providerFor(liveMode, 'card-acquirer');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({
      code: ErrorCode.UNPROCESSABLE,
      message:
        'No card acquirer is configured for live mode, so live card payments cannot be taken; use test credentials in the sandbox',
    });
  });

  test('work outside a request asks for a mode and hears null, not a refusal', () => {
    expect(providers.inMode('card-acquirer', 'live')).toBeNull();
    expect(providers.inMode('card-acquirer', 'test')).toBe(acquirer);
  });

  test('mail is chosen once for the server: the same mailer in both modes', () => {
    expect(providers.providerFor(liveMode, 'mail')).toBe(mailer);
    expect(providers.providerFor(testMode, 'mail')).toBe(mailer);
  });

  test('live mode has no KYC provider nor treasury rail yet: refused with UNPROCESSABLE, saying so', () => {
    expect(() => providers.providerFor(liveMode, 'kyc')).toThrow('No KYC provider is configured for live mode');
    expect(() => providers.providerFor(liveMode, 'treasury-rail')).toThrow(
      'No treasury banking partner is configured for live mode',
    );
    expect(providers.providerFor(testMode, 'kyc').name).toBe('sandbox-kyc');
  });
});

/** src/providers/kinds.ts: each kind of outside party is one module, and the registry is a loop over them. */
describe('provider kinds', () => {
  test('each kind is declared once, and createProviders gives every kind its module’s choice', () => {
    const kinds = PROVIDER_KINDS.map((module) => module.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'card-acquirer',
        'mail',
        'payout-rail',
        'collection-rail',
        'fx',
        'screening',
        'kyc',
        'treasury-rail',
      ]),
    );
    const providers = createProviders({
      config: loadConfig({ NODE_ENV: 'test' }),
      secrets: { masterKey: 'a-master-key-for-tests', jwtSecret: 'a-jwt-secret' },
      dataSource: {} as DataSource,
      log: () => undefined,
    });
    for (const kind of kinds) {
      expect(providers.inMode(kind, 'test')).toBeTruthy();
      // Mail is one mailer for both modes; screening's live provider is the loaded official lists
      // (it refuses while none is loaded: test/sanctions-screening.test.ts); every other kind has no
      // live provider in this build.
      if (kind === 'mail') expect(providers.providerFor({ livemode: true }, kind)).toBe(providers.inMode(kind, 'test'));
      else if (kind === 'screening')
        expect(providers.providerFor({ livemode: true }, kind).name).toBe('official-lists');
      else
        expect(() => providers.providerFor({ livemode: true }, kind)).toThrow(
          PROVIDER_KINDS.find((module) => module.kind === kind)!.missing,
        );
    }
  });
});
