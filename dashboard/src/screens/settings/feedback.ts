import { notifications } from '@mantine/notifications';
import type { UserErrorValue } from '../../ui/UserErrors';

/** A green notification saying what was done. */
export const done = (message: string) =>
  notifications.show({ color: 'green', message, closeButtonProps: { 'aria-label': 'Dismiss' } });

/** A thrown error (FORBIDDEN, a network failure) as a refusal shown where the action was. */
export const thrown = (error: unknown): UserErrorValue[] => [
  { field: null, code: 'ERROR', message: (error as Error).message },
];

/** Roles that may rename the business and set low-balance thresholds (docs/graphql-api.md, Roles). */
export const ADMINS = ['OWNER', 'ADMIN'] as const;
