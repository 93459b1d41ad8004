import type { PayoutScheduleCadence } from '../../gql/graphql';

export const CADENCES: PayoutScheduleCadence[] = ['ONCE', 'WEEKLY', 'BIWEEKLY', 'MONTHLY'];

/** The schedule fields both the create form and the editor show, by the API's input names. */
export const SCHEDULE_FIELDS = ['name', 'cadence', 'dayOfMonth', 'maxRunAmountUsd'] as const;
