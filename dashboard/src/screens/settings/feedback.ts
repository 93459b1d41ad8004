import { notifications } from '@mantine/notifications';
import type { UserErrorValue } from '../../ui/UserErrors';

/** A green notification saying what was done. */
export const done = (message: string) =>
  notifications.show({ color: 'green', message, closeButtonProps: { 'aria-label': 'Dismiss' } });

/** A thrown error (FORBIDDEN, a network failure) as a refusal shown where the action was. */
export const thrown = (error: unknown): UserErrorValue[] => [
  { field: null, code: 'ERROR', message: (error as Error).message },
];

/** Roles that may change fraud rules, the block list and the sandbox (docs/graphql-api.md, Roles). */
export const ADMINS = ['OWNER', 'ADMIN'] as const;
