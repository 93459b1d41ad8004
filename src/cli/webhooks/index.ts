import type { Command } from 'commander';
import { operatorContext, print, withRuntime } from '../shared/run';

/** Webhooks' operator command: `v1-webhook-url`, where a business's `/v1` events go. */
export function commands(program: Command) {
  program
    .command('v1-webhook-url')
    .argument('<businessId>', 'business id')
    .argument('<url|off>', "an absolute http(s) URL that receives the business's /v1 events, or off to remove it")
    .option('--live', "set the live mode's URL instead of the test mode's")
    .description(
      "Set where the business's /v1 events go (besides a payment's own webhook_url); the main surface's webhookUrl and endpoints never receive them",
    )
    .action(async (businessId: string, url: string, options: { live?: boolean }) => {
      const { v1WebhookUrlSchema } = require('../../wire/accounts') as typeof import('../../wire/accounts');
      const { parseInput } = require('../../wire/validation') as typeof import('../../wire/validation');
      await withRuntime(async (runtime) => {
        const { webhookUrl } = parseInput(v1WebhookUrlSchema, { webhookUrl: url === 'off' ? null : url });
        const saved = await runtime.core.v1Settings.setWebhookUrl(
          operatorContext(runtime.dataSource, businessId, options.live),
          webhookUrl,
        );
        print({ businessId, mode: saved.mode, webhookUrl: saved.webhookUrl });
      });
    });
}
