import { z } from 'zod';
import { BlocklistEntryType, BlocklistFilters, FraudRuleType } from '../../domain/fraud';
import { enumFilter, pageParams } from '../../wire/validation';
import { currencyCodeSchema, decimalStringSchema, offsetListSchema, timestampSchema } from '../shared/schemas';

// ---------------------------------------------------------------- requests

export const blocklistQuerySchema = z.object({
  ...pageParams,
  type: enumFilter(BlocklistEntryType).optional(),
});

export const toBlocklistFilters = (query: z.output<typeof blocklistQuerySchema>): BlocklistFilters => ({
  type: query.type,
});

// ---------------------------------------------------------------- responses

export const fraudRuleSchema = z
  .object({
    id: z.string(),
    object: z.literal('fraud_rule'),
    type: z.enum(FraudRuleType),
    enabled: z.boolean(),
    countries: z.array(z.string()).optional().describe('card_country: blocked issuing countries (ISO 3166-1 alpha-2)'),
    bins: z.array(z.string()).optional().describe('card_bin: blocked BIN prefixes'),
    domains: z.array(z.string()).optional().describe('email_domain: blocked email domains (and their subdomains)'),
    amount: decimalStringSchema
      .optional()
      .describe('amount_above: charges above this amount (major units) in `currency` are blocked'),
    amountMinor: z.string().optional().describe('amount_above: the same threshold in minor units, as a string'),
    currency: currencyCodeSchema.optional().describe('amount_above: lower-case currency code'),
    maxAttemptsPerHour: z.number().int().optional().describe('velocity_card: attempts allowed per card per hour'),
    description: z.string().nullable(),
    livemode: z.boolean(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .describe('A screening rule; only the parameters of its type are present')
  .meta({ id: 'FraudRule' });

export const fraudRuleListSchema = z.object({
  items: z.array(fraudRuleSchema).describe('Every rule, in screening order (oldest first)'),
  total: z.number().int(),
});

export const blocklistEntrySchema = z
  .object({
    id: z.string(),
    object: z.literal('blocklist_entry'),
    type: z.enum(BlocklistEntryType),
    value: z.string().describe('Normalized: emails lower case, IP addresses in canonical form'),
    description: z.string().nullable(),
    livemode: z.boolean(),
    createdAt: timestampSchema,
  })
  .meta({ id: 'BlocklistEntry' });

export const blocklistPageSchema = offsetListSchema(blocklistEntrySchema);
