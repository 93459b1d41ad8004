import { DataSource } from 'typeorm';
import type { IdempotencyService } from './idempotency';
import type { SignUpService } from './identity';
import { AreaJobs, cronLine } from './shared/jobs';
import type { CardTokenService } from './tokens';

/** Hourly purges of rows past their lifetime: stored Idempotency-Key answers, card tokens, unconfirmed sign-ups. */
export function housekeepingJobs(
  dataSource: DataSource,
  idempotency: Pick<IdempotencyService, 'purgeExpired'>,
  cardTokens: Pick<CardTokenService, 'purgeExpired'>,
  signUps: Pick<SignUpService, 'purgeExpired'>,
): AreaJobs {
  return {
    actor: 'housekeeping',
    tasks: {
      /** Forgets stored Idempotency-Key responses past their lifetime. */
      purge_expired_idempotency_keys: async (_payload, log) => {
        const purged = await idempotency.purgeExpired(dataSource);
        if (purged > 0) log.info(`purged ${purged} expired idempotency keys`);
      },
      /** Deletes card tokens that expired more than a day ago. */
      purge_expired_card_tokens: async (_payload, log, system) => {
        const purged = await cardTokens.purgeExpired(system());
        if (purged > 0) log.info(`purged ${purged} expired card tokens`);
      },
      /** Deletes sign-ups a day after they expired unconfirmed. */
      purge_expired_sign_ups: async (_payload, log, system) => {
        const purged = await signUps.purgeExpired(system());
        if (purged > 0) log.info(`purged ${purged} expired sign-ups`);
      },
    },
    crontab: [
      cronLine('0 * * * *', 'purge_expired_idempotency_keys'),
      cronLine('30 * * * *', 'purge_expired_card_tokens'),
      cronLine('45 * * * *', 'purge_expired_sign_ups'),
    ],
  };
}
