import { Core } from '../src/domain/core';
import { Mode } from '../src/domain/shared/modes';
import { AccountKind, LedgerAccount } from '../src/domain/ledger/ledger.entities';
import { LedgerService } from '../src/domain/ledger/ledger.service';
import { RequestContext, inTransaction } from '../src/domain/shared/context';
import { toMinor } from '../src/domain/shared/money';
import { DomainError, ErrorCode } from '../src/domain/shared/errors';
import { LedgerTopic } from '../src/domain/ledger/ledger.topics';
import { LedgerErrorCode } from '../src/domain/ledger/ledger.errors';
import { TestServer, startTestServer } from './support/harness';

/** The double-entry ledger (design section 3), against the real PostgreSQL. */
describe('Ledger', () => {
  let server: TestServer;
  let core: Core;

  beforeAll(async () => {
    server = await startTestServer();
    core = server.runtime.core;
  });
  afterAll(async () => server.close());

  /** A fresh business in test mode with its USD wallet funded by the sandbox. */
  async function fundedBusiness(amount: string) {
    const merchant = await server.signUp();
    const ctx = RequestContext.system(server.runtime.dataSource, 'test', merchant.businessId, Mode.TEST);
    const { wallet } = await core.wallets.sandboxFund(ctx, { currency: 'USD', amount: toMinor(amount, 'USD') });
    return { ctx, wallet };
  }

  const balanceOf = async (accountId: string): Promise<bigint> => {
    const [row] = await server.runtime.dataSource.query(
      `SELECT balance::text AS balance FROM ledger_accounts WHERE id = $1`,
      [accountId],
    );
    return BigInt(row.balance);
  };

  const countRows = async (table: 'journal_entries' | 'journal_transactions'): Promise<number> => {
    const [row] = await server.runtime.dataSource.query(`SELECT count(*)::int AS count FROM ${table}`);
    return row.count;
  };

  const debit = (ctx: RequestContext, wallet: LedgerAccount, amount: bigint) =>
    inTransaction(ctx, async (tx) => {
      const sink = await core.ledger.account(tx, { kind: AccountKind.PAYOUT_IN_FLIGHT, currency: 'USD' });
      return core.ledger.post(tx, {
        kind: 'test_debit',
        lines: [
          { account: wallet, amount: -amount },
          { account: sink, amount },
        ],
      });
    });

  test('concurrent debits never overdraw a wallet: 50 debits of 0.30 against 10.00 leave 33 posted, 17 refused, 0.10 left', async () => {
    const { ctx, wallet } = await fundedBusiness('10.00');
    expect(await balanceOf(wallet.id)).toBe(1000n);

    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => debit(ctx, wallet, 30n)));

    const posted = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(
      refused.every((error) => error instanceof DomainError && error.code === LedgerErrorCode.INSUFFICIENT_FUNDS),
    ).toBe(true);
    expect(posted).toHaveLength(33);
    expect(refused).toHaveLength(17);
    expect(await balanceOf(wallet.id)).toBe(10n);

    const balancesAfter: Array<{ balance_after: string }> = await server.runtime.dataSource.query(
      `SELECT balance_after::text FROM journal_entries WHERE account_id = $1 ORDER BY seq`,
      [wallet.id],
    );
    expect(balancesAfter).toHaveLength(34);
    expect(balancesAfter.every((row) => BigInt(row.balance_after) >= 0n)).toBe(true);
    // Each debit saw the balance the previous one left: 1000, 970, ..., 10.
    expect(balancesAfter.map((row) => BigInt(row.balance_after))).toEqual(
      Array.from({ length: 34 }, (_, index) => 1000n - BigInt(index) * 30n),
    );

    const [postedDebits] = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS count FROM journal_transactions WHERE business_id = $1 AND kind = 'test_debit'`,
      [ctx.businessId],
    );
    expect(postedDebits.count).toBe(33);
    expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
  });

  test('a debit larger than the balance is refused with INSUFFICIENT_FUNDS and writes nothing', async () => {
    const { ctx, wallet } = await fundedBusiness('1.00');
    const [entries, transactions] = [await countRows('journal_entries'), await countRows('journal_transactions')];
    await expect(debit(ctx, wallet, 101n)).rejects.toMatchObject({ code: LedgerErrorCode.INSUFFICIENT_FUNDS });
    expect(await balanceOf(wallet.id)).toBe(100n);
    expect(await countRows('journal_entries')).toBe(entries);
    expect(await countRows('journal_transactions')).toBe(transactions);
  });

  test('an unbalanced posting throws and writes nothing', async () => {
    const { ctx, wallet } = await fundedBusiness('5.00');
    const [entries, transactions] = [await countRows('journal_entries'), await countRows('journal_transactions')];
    await expect(
      inTransaction(ctx, async (tx) => {
        const sink = await core.ledger.account(tx, { kind: AccountKind.PAYOUT_IN_FLIGHT, currency: 'USD' });
        return core.ledger.post(tx, {
          kind: 'test_unbalanced',
          lines: [
            { account: wallet, amount: -100n },
            { account: sink, amount: 99n },
          ],
        });
      }),
    ).rejects.toThrow(/Unbalanced/);
    expect(await balanceOf(wallet.id)).toBe(500n);
    expect(await countRows('journal_entries')).toBe(entries);
    expect(await countRows('journal_transactions')).toBe(transactions);
  });

  test('a posting that balances per currency only in total (USD against EUR) is refused', async () => {
    const { ctx, wallet } = await fundedBusiness('5.00');
    await expect(
      inTransaction(ctx, async (tx) => {
        const sink = await core.ledger.account(tx, { kind: AccountKind.PAYOUT_IN_FLIGHT, currency: 'EUR' });
        return core.ledger.post(tx, {
          kind: 'test_cross_currency',
          lines: [
            { account: wallet, amount: -100n },
            { account: sink, amount: 100n },
          ],
        });
      }),
    ).rejects.toThrow(/Unbalanced/);
    expect(await balanceOf(wallet.id)).toBe(500n);
  });

  test('a posting outside a database transaction is refused', async () => {
    const { ctx, wallet } = await fundedBusiness('5.00');
    const sink = await core.ledger.account(ctx, { kind: AccountKind.PAYOUT_IN_FLIGHT, currency: 'USD' });
    await expect(
      core.ledger.post(ctx, {
        kind: 'test_debit',
        lines: [
          { account: wallet, amount: -1n },
          { account: sink, amount: 1n },
        ],
      }),
    ).rejects.toThrow(/inside a transaction/);
  });

  test('an account listed on several lines of one posting gets one running balance per entry', async () => {
    const { ctx, wallet } = await fundedBusiness('1.00');
    await inTransaction(ctx, async (tx) => {
      const sink = await core.ledger.account(tx, { kind: AccountKind.PAYOUT_IN_FLIGHT, currency: 'USD' });
      return core.ledger.post(tx, {
        kind: 'test_split_debit',
        lines: [
          { account: wallet, amount: -30n },
          { account: wallet, amount: -20n },
          { account: sink, amount: 50n },
        ],
      });
    });
    const rows: Array<{ amount: string; balance_after: string }> = await server.runtime.dataSource.query(
      `SELECT amount::text, balance_after::text FROM journal_entries WHERE account_id = $1 ORDER BY seq`,
      [wallet.id],
    );
    expect(rows).toEqual([
      { amount: '100', balance_after: '100' },
      { amount: '-30', balance_after: '70' },
      { amount: '-20', balance_after: '50' },
    ]);
    expect(await balanceOf(wallet.id)).toBe(50n);
    expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
  });

  test('a credit that would overflow a balance is refused as UNPROCESSABLE and writes nothing', async () => {
    const { ctx, wallet } = await fundedBusiness('1.00');
    const huge = 2n ** 63n - 1n - 50n;
    await expect(
      inTransaction(ctx, async (tx) => {
        const source = await core.ledger.account(tx, { kind: AccountKind.SANDBOX_FUNDING, currency: 'USD' });
        return core.ledger.post(tx, {
          kind: 'test_overflow',
          lines: [
            { account: wallet, amount: huge },
            { account: source, amount: -huge },
          ],
        });
      }),
    ).rejects.toMatchObject({ code: ErrorCode.UNPROCESSABLE });
    expect(await balanceOf(wallet.id)).toBe(100n);
  });

  test('journal entries and transactions are append-only: UPDATE and DELETE are refused by the database', async () => {
    const { wallet } = await fundedBusiness('1.00');
    const [entry] = await server.runtime.dataSource.query(
      `SELECT seq, transaction_id FROM journal_entries WHERE account_id = $1`,
      [wallet.id],
    );
    const db = server.runtime.dataSource;
    await expect(
      db.query(`UPDATE journal_entries SET amount = amount + 1 WHERE seq = $1`, [entry.seq]),
    ).rejects.toThrow(/append-only/);
    await expect(db.query(`DELETE FROM journal_entries WHERE seq = $1`, [entry.seq])).rejects.toThrow(/append-only/);
    await expect(
      db.query(`UPDATE journal_transactions SET kind = 'edited' WHERE id = $1`, [entry.transaction_id]),
    ).rejects.toThrow(/append-only/);
    await expect(db.query(`DELETE FROM journal_transactions WHERE id = $1`, [entry.transaction_id])).rejects.toThrow(
      /append-only/,
    );
    const [row] = await db.query(`SELECT amount::text FROM journal_entries WHERE seq = $1`, [entry.seq]);
    expect(row.amount).toBe('100');
  });

  test('the database refuses a negative wallet balance even when the service is bypassed', async () => {
    const { wallet } = await fundedBusiness('1.00');
    await expect(
      server.runtime.dataSource.query(`UPDATE ledger_accounts SET balance = -1 WHERE id = $1`, [wallet.id]),
    ).rejects.toThrow(/ck_ledger_accounts_no_overdraft/);
  });

  test('check() detects a cached balance that no longer matches its entries', async () => {
    const { wallet } = await fundedBusiness('2.00');
    const db = server.runtime.dataSource;
    expect((await LedgerService.check(db)).balanced).toBe(true);
    await db.query(`UPDATE ledger_accounts SET balance = balance + 1 WHERE id = $1`, [wallet.id]);
    try {
      const corrupted = await LedgerService.check(db);
      expect(corrupted.balanced).toBe(false);
      expect(corrupted.cachedBalanceMismatches).toEqual([{ accountId: wallet.id, cached: '201', fromEntries: '200' }]);
    } finally {
      await db.query(`UPDATE ledger_accounts SET balance = balance - 1 WHERE id = $1`, [wallet.id]);
    }
    expect((await LedgerService.check(db)).balanced).toBe(true);
  });

  test('accounts are per mode: a posting cannot mix test and live accounts', async () => {
    const { ctx, wallet } = await fundedBusiness('1.00');
    const live = ctx.forBusiness(ctx.businessId!, Mode.LIVE);
    await expect(
      inTransaction(live, async (tx) => {
        const sink = await core.ledger.account(tx, { kind: AccountKind.PAYOUT_IN_FLIGHT, currency: 'USD' });
        return core.ledger.post(tx, {
          kind: 'test_debit',
          lines: [
            { account: wallet, amount: -1n },
            { account: sink, amount: 1n },
          ],
        });
      }),
    ).rejects.toThrow(/mix test and live/);
    expect(await balanceOf(wallet.id)).toBe(100n);
  });

  test("money moved with ledger.move announces each moved wallet's new balance once committed, and nothing when rolled back", async () => {
    const { ctx, wallet } = await fundedBusiness('10.00');
    const publish = jest.spyOn(core.pubSub, 'publish');
    try {
      const move = (tx: RequestContext) =>
        core.ledger.account(tx, { kind: AccountKind.PAYOUT_IN_FLIGHT, currency: 'USD' }).then((sink) =>
          core.ledger.move(tx, {
            kind: 'test_debit',
            lines: [
              { account: wallet, amount: -250n },
              { account: sink, amount: 250n },
            ],
          }),
        );
      const posted = await inTransaction(ctx, async (tx) => {
        const moved = await move(tx);
        expect(publish).not.toHaveBeenCalled();
        return moved;
      });
      expect(publish.mock.calls.filter(([topic]) => topic === LedgerTopic.WALLET_BALANCE)).toEqual([
        [
          LedgerTopic.WALLET_BALANCE,
          {
            businessId: wallet.businessId,
            livemode: false,
            walletId: wallet.id,
            currency: 'USD',
            balanceMinor: '750',
            changeMinor: '-250',
            journalTransactionId: posted.transaction.id,
            occurredAt: posted.transaction.createdAt.toISOString(),
          },
        ],
      ]);
      publish.mockClear();
      await expect(
        inTransaction(ctx, async (tx) => {
          await move(tx);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(publish).not.toHaveBeenCalled();
      expect(await balanceOf(wallet.id)).toBe(750n);
    } finally {
      publish.mockRestore();
    }
  });
});
