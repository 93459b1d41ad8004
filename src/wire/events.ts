/**
 * The event log's filters as both faces take them (REST `GET /events` and the GraphQL `events`
 * query): one shape, so both faces answer a bad filter with the same field messages, and one
 * mapping to the domain's filters.
 */
import { z } from 'zod';
import { EventFilters } from '../domain/events/event-log.commands';
import { dateTimeSchema } from './validation';

/** The event log's filters, as both faces take them (GraphQL sends null for an absent one). */
export const eventFilterFields = {
  type: z
    .string()
    .regex(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/, 'must be an event type such as wallet.funded')
    .nullish()
    .describe('Only events of this type'),
  from: dateTimeSchema.nullish().describe('Created at or after (ISO 8601)'),
  to: dateTimeSchema.nullish().describe('Created at or before (ISO 8601)'),
};

export const eventFilterSchema = z.object(eventFilterFields);

export const toEventFilters = (filters: z.output<typeof eventFilterSchema>): EventFilters => ({
  type: filters.type ?? undefined,
  from: filters.from ?? undefined,
  to: filters.to ?? undefined,
});
