import { createHash } from 'node:crypto';
import { OpenedDepositAccount, TreasuryPayoutSubmission, TreasuryRail, TreasuryRailAcceptance } from './port';

/**
 * The sandbox treasury rail's magic values: `metadata.test_outcome` of a treasury payout
 * (design section 10; docs/sandbox.md). `success` (or none): PENDING → PROCESSING → COMPLETED
 * `settleAfterMs` after dispatch; `failed`: PENDING → PROCESSING → FAILED (`failureReason`
 * `sandbox_test_outcome_failed`, debit reversed); `pending`: stays PENDING (never dispatched), to
 * try tracking and cancelling.
 */
export const SANDBOX_TEST_OUTCOMES = ['success', 'failed', 'pending'] as const;
export const SANDBOX_FAILURE_REASON = 'sandbox_test_outcome_failed';

/** The sandbox bank's details per currency: how a fiat virtual account looks there. */
const FIAT: Record<
  string,
  { scheme: string; accountType: string; routing: string | null; iban: string | null; bankName: string }
> = {
  USD: {
    scheme: 'ach',
    accountType: 'checking',
    routing: '110000000',
    iban: null,
    bankName: 'Tessera Sandbox Bank (US)',
  },
  EUR: { scheme: 'sepa', accountType: 'iban', routing: null, iban: 'DE', bankName: 'Tessera Sandbox Bank (EU)' },
  GBP: {
    scheme: 'faster_payments',
    accountType: 'current',
    routing: '040004',
    iban: 'GB',
    bankName: 'Tessera Sandbox Bank (UK)',
  },
  NGN: { scheme: 'nip', accountType: 'virtual', routing: '999999', iban: null, bankName: 'Tessera Sandbox MFB (NG)' },
  KES: {
    scheme: 'pesalink',
    accountType: 'virtual',
    routing: '99001',
    iban: null,
    bankName: 'Tessera Sandbox Bank (KE)',
  },
  GHS: {
    scheme: 'ghipss',
    accountType: 'virtual',
    routing: '300399',
    iban: null,
    bankName: 'Tessera Sandbox Bank (GH)',
  },
  ZAR: { scheme: 'eft', accountType: 'virtual', routing: '250655', iban: null, bankName: 'Tessera Sandbox Bank (ZA)' },
};

/** Digits derived from the wallet id: the same wallet always has the same account. */
const digitsOf = (seed: string, count: number) => {
  const hex = createHash('sha256').update(seed).digest('hex');
  return BigInt(`0x${hex}`).toString().slice(0, count).padStart(count, '0');
};

/** ISO 13616 check digits of an IBAN with the given country, and BBAN. */
function ibanOf(country: string, bban: string): string {
  const rearranged = `${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  const check = 98n - (BigInt(rearranged) % 97n);
  return `${country}${check.toString().padStart(2, '0')}${bban}`;
}

export class SandboxTreasuryRail implements TreasuryRail {
  readonly name = 'sandbox-treasury-rail';
  readonly currencies = [...Object.keys(FIAT), 'USDC'] as const;

  constructor(private readonly settleAfterMs: number) {}

  dispatchOf(testOutcome: string | null): 'auto' | 'manual' {
    return testOutcome === 'pending' ? 'manual' : 'auto';
  }

  async openDepositAccount({
    walletId,
    currency,
    holderName,
  }: {
    walletId: string;
    currency: string;
    holderName: string;
  }): Promise<OpenedDepositAccount> {
    const reference = `TSR-${digitsOf(`ref:${walletId}`, 10)}`;
    if (currency === 'USDC') {
      const address = `0x${createHash('sha256').update(`address:${walletId}`).digest('hex').slice(0, 40)}`;
      return {
        accountNumber: null,
        routingNumber: null,
        iban: null,
        bankName: null,
        accountType: null,
        chain: 'ethereum',
        address,
        instructions: {
          method: 'crypto',
          asset: 'USDC',
          chain: 'ethereum',
          address,
          memo: null,
          note: 'Send only USDC on Ethereum to this address',
        },
      };
    }
    const fiat = FIAT[currency];
    if (!fiat) throw new Error(`The sandbox treasury rail holds no ${currency} wallets`);
    const accountNumber = digitsOf(`account:${walletId}`, currency === 'GBP' ? 8 : currency === 'NGN' ? 10 : 12);
    const iban =
      fiat.iban === 'DE'
        ? ibanOf('DE', `37040044${digitsOf(`account:${walletId}`, 10)}`)
        : fiat.iban === 'GB'
          ? ibanOf('GB', `TSRY${fiat.routing}${accountNumber}`)
          : null;
    return {
      accountNumber: fiat.iban === 'DE' ? null : accountNumber,
      routingNumber: fiat.routing,
      iban,
      bankName: fiat.bankName,
      accountType: fiat.accountType,
      chain: null,
      address: null,
      instructions: {
        method: 'bank_transfer',
        scheme: fiat.scheme,
        beneficiaryName: holderName,
        reference,
        note: `Send ${currency} by ${fiat.scheme} quoting the reference`,
      },
    };
  }

  async submit(submission: TreasuryPayoutSubmission): Promise<TreasuryRailAcceptance> {
    const providerRef = `sbx_tpo_${createHash('sha256').update(submission.payoutId).digest('hex').slice(0, 20)}`;
    if (submission.testOutcome === 'failed') {
      return {
        providerRef,
        callback: { outcome: { status: 'FAILED', reason: SANDBOX_FAILURE_REASON }, afterMs: this.settleAfterMs },
      };
    }
    return { providerRef, callback: { outcome: { status: 'COMPLETED' }, afterMs: this.settleAfterMs } };
  }
}
