import type { Command } from 'commander';
import { toMajor } from '../../domain/shared/money';
import { commandNamed, operatorContext, print, withRuntime } from '../shared/run';

/** Wallets' operator command: `business low-balance-threshold`, beside identity's business commands. */
export function commands(program: Command) {
  commandNamed(program, 'business')
    .command('low-balance-threshold')
    .argument('<id>', 'business id')
    .argument('<currency>', "the wallet's currency, e.g. USD")
    .argument('<amount|off>', 'a decimal amount in major units such as 100.00, or off to remove the threshold')
    .option('--live', "set the live wallet's threshold instead of the test wallet's")
    .description(
      'Set the low-balance threshold of a wallet: a debit that takes its balance from at or above it to below it emits wallet.low_balance on /v1',
    )
    .action(async (id: string, currency: string, amount: string, options: { live?: boolean }) => {
      const { lowBalanceCommandOf, lowBalanceThresholdSchema } =
        require('../../wire/low-balance') as typeof import('../../wire/low-balance');
      const { parseInput } = require('../../wire/validation') as typeof import('../../wire/validation');
      await withRuntime(async (runtime) => {
        const ctx = operatorContext(runtime.dataSource, id, options.live);
        const command = lowBalanceCommandOf(
          parseInput(lowBalanceThresholdSchema, { currency, threshold: amount === 'off' ? null : amount }),
        );
        const saved = await runtime.core.lowBalance.set(ctx, command);
        print({
          businessId: id,
          mode: options.live ? 'live' : 'test',
          currency: currency.toUpperCase(),
          threshold: saved ? toMajor(saved.threshold, saved.currency) : null,
        });
      });
    });
}
