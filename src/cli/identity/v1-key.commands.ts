import { Command } from 'commander';
import { Mode } from '../../domain/shared/modes';
import { operatorContext, print, withRuntime } from '../shared/run';

/** `tessera v1-key create`: a business's `/v1` secret key, kept by identity with its other credentials. */
export function v1KeyCommands(program: Command) {
  const v1Key = program.command('v1-key').description('Manage the secret keys of the alternate surface /v1');
  v1Key
    .command('create')
    .argument('<businessId>', 'business id (the business must be verified)')
    .option('--live', 'issue the live key (tessera_live_sk_…) instead of the test key')
    .description(
      'Issue the /v1 secret key of a business and mode, printed once; the previous key of that mode stops working at once',
    )
    .action(async (businessId: string, options: { live?: boolean }) => {
      await withRuntime(async (runtime) => {
        const mode = options.live ? Mode.LIVE : Mode.TEST;
        const issued = await runtime.core.v1Keys.issue(operatorContext(runtime.dataSource, businessId, options.live), {
          mode,
        });
        print({ businessId, mode: issued.mode, apiKey: issued.apiKey, createdAt: issued.createdAt.toISOString() });
      });
    });
}
