/**
 * The fraud requests as both faces accept them (REST `/business/fraud` and the GraphQL fraud
 * mutations): a rule to create or change, a block-list entry, one shape each, so both faces answer
 * a bad request with the same field messages, and one mapping to the domain's commands.
 */
import { z } from 'zod';
import {
  AddBlocklistEntryCommand,
  BlocklistEntryType,
  CreateFraudRuleCommand,
  FraudRuleParameters,
  FraudRuleType,
  UpdateFraudRuleCommand,
} from '../domain/fraud';
import { normalizeCurrency, toMinor } from '../domain/shared/money';
import { decimalAmount, required } from './validation';

const unique = <T>(values: T[]) => [...new Set(values)];
const listOf = <S extends z.ZodType<string>>(item: S, what: string) =>
  z
    .array(item, { error: required(`a non-empty array of ${what}`) })
    .min(1, `must list at least one of ${what}`)
    .max(500, `must list at most 500 ${what}`)
    .transform(unique);

const countrySchema = z
  .string({ error: 'must be a two-letter country code such as GB' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'must be a two-letter country code (ISO 3166-1 alpha-2) such as GB');
const binSchema = z
  .string({ error: 'must be a BIN prefix of 1 to 6 digits' })
  .trim()
  .regex(/^\d{1,6}$/, 'must be a BIN prefix of 1 to 6 digits (acquirers report the first 6 digits of a card)');
const domainSchema = z
  .string({ error: 'must be an email domain such as example.com' })
  .trim()
  .toLowerCase()
  .regex(
    /^@?(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'must be an email domain such as example.com',
  )
  .transform((domain) => domain.replace(/^@/, ''));
const amountSchema = decimalAmount('a decimal amount such as 500.00');
const currencySchema = z.string({ error: required('a currency code such as usd') });
const maxAttemptsSchema = z
  .number({ error: required('a whole number of attempts from 1 to 1000') })
  .int('must be a whole number from 1 to 1000')
  .min(1, 'must be from 1 to 1000')
  .max(1000, 'must be from 1 to 1000');
const enabledSchema = z.boolean({ error: 'must be true or false' });
const descriptionSchema = z
  .string({ error: 'must be a string or null' })
  .trim()
  .max(500, 'must be at most 500 characters')
  .nullable();

/** What each rule type takes besides `type`, `enabled` and `description`. */
const PARAMETERS = {
  [FraudRuleType.CARD_COUNTRY]: { countries: listOf(countrySchema, 'country codes') },
  [FraudRuleType.CARD_BIN]: { bins: listOf(binSchema, 'BIN prefixes') },
  [FraudRuleType.EMAIL_DOMAIN]: { domains: listOf(domainSchema, 'email domains') },
  [FraudRuleType.AMOUNT_ABOVE]: { amount: amountSchema, currency: currencySchema },
  [FraudRuleType.VELOCITY_CARD]: { maxAttemptsPerHour: maxAttemptsSchema },
} as const;

const TYPES = Object.values(FraudRuleType).join(', ');

const ruleOf = <T extends FraudRuleType>(type: T) =>
  z
    .object(
      {
        type: z.literal(type),
        enabled: enabledSchema.optional(),
        description: descriptionSchema.optional(),
        ...PARAMETERS[type],
      },
      { error: 'must be a JSON object' },
    )
    .strict();

/**
 * POST /fraud/rules: `type` and exactly the parameters of that type. An unknown or missing type
 * is reported on `type` alone (the parameters cannot be judged without it).
 */
export const createRuleBodySchema = z.discriminatedUnion(
  'type',
  [
    ruleOf(FraudRuleType.CARD_COUNTRY),
    ruleOf(FraudRuleType.CARD_BIN),
    ruleOf(FraudRuleType.EMAIL_DOMAIN),
    ruleOf(FraudRuleType.AMOUNT_ABOVE),
    ruleOf(FraudRuleType.VELOCITY_CARD),
  ],
  {
    error: (issue) => {
      if (issue.code !== 'invalid_union') return 'must be a JSON object';
      return (issue.input as { type?: unknown } | undefined)?.type === undefined
        ? `is required: one of ${TYPES}`
        : `must be one of ${TYPES}`;
    },
  },
);

/** PATCH /fraud/rules/{id}: any of enabled, description and the parameters of the rule's own type. */
export const updateRuleBodySchema = z
  .object(
    {
      type: z
        .string({ error: 'cannot be changed; delete the rule and create another' })
        .optional()
        .describe("The rule's own type, if sent at all: a rule's type cannot be changed"),
      enabled: enabledSchema.optional(),
      description: descriptionSchema.optional(),
      countries: PARAMETERS.card_country.countries.optional(),
      bins: PARAMETERS.card_bin.bins.optional(),
      domains: PARAMETERS.email_domain.domains.optional(),
      amount: amountSchema.optional(),
      currency: currencySchema.optional(),
      maxAttemptsPerHour: maxAttemptsSchema.optional(),
    },
    { error: 'must be a JSON object' },
  )
  .strict();

export const blocklistBodySchema = z.object(
  {
    type: z.enum(BlocklistEntryType, { error: required(`one of ${Object.values(BlocklistEntryType).join(', ')}`) }),
    value: z
      .string({ error: required('the email, card fingerprint or IP address to block') })
      .trim()
      .min(1, 'must not be empty')
      .max(320),
    description: descriptionSchema.optional(),
  },
  { error: 'must be a JSON object' },
);

type CreateRuleBody = z.output<typeof createRuleBodySchema>;

/** The parameters in domain terms: an amount in minor units of its (supported) currency. */
function parametersOf(body: CreateRuleBody): FraudRuleParameters {
  if (body.type !== FraudRuleType.AMOUNT_ABOVE) return body;
  const currency = normalizeCurrency(body.currency);
  return { type: body.type, amount: toMinor(body.amount, currency), currency };
}

export const toCreateRuleCommand = (body: CreateRuleBody): CreateFraudRuleCommand => ({
  ...parametersOf(body),
  enabled: body.enabled,
  description: body.description,
});

export const toUpdateRuleCommand = (
  id: string,
  body: z.output<typeof updateRuleBodySchema>,
): UpdateFraudRuleCommand => ({ id, ...body });

export const toAddBlocklistEntryCommand = (body: z.output<typeof blocklistBodySchema>): AddBlocklistEntryCommand =>
  body;
