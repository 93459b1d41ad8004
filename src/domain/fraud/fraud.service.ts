import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import type { ChargeAttempt } from '../payments/payment.service';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, notFound, validationError } from '../shared/errors';
import { Page, PageRequest, keysetPage, newestFirst } from '../shared/pagination';
import { normalizeCurrency, toMajor, toMinor } from '../shared/money';
import { decimalAmount, emailSchema, enumFilter, isUuid, parseInput, required, pageParams } from '../../wire/validation';
import { BusinessSettings } from '../identity/identity.entities';
import { BlocklistEntry, BlocklistEntryType, FraudRule, FraudRuleType } from './fraud.entities';

/** At most this many rules per business and mode; creating one more is a CONFLICT. */
export const MAX_RULES_PER_MODE = 100;

/** The velocity rule's window. */
export const VELOCITY_WINDOW_SECONDS = 3600;

const unique = <T>(values: T[]) => [...new Set(values)];
const listOf = <S extends z.ZodType<string>>(item: S, what: string) =>
  z.array(item, { error: required(`a non-empty array of ${what}`) })
    .min(1, `must list at least one of ${what}`).max(500, `must list at most 500 ${what}`).transform(unique);

const countrySchema = z.string({ error: 'must be a two-letter country code such as GB' }).trim().toUpperCase()
  .regex(/^[A-Z]{2}$/, 'must be a two-letter country code (ISO 3166-1 alpha-2) such as GB');
const binSchema = z.string({ error: 'must be a BIN prefix of 1 to 6 digits' }).trim()
  .regex(/^\d{1,6}$/, 'must be a BIN prefix of 1 to 6 digits (acquirers report the first 6 digits of a card)');
const domainSchema = z.string({ error: 'must be an email domain such as example.com' }).trim().toLowerCase()
  .regex(/^@?(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be an email domain such as example.com')
  .transform((domain) => domain.replace(/^@/, ''));
const amountSchema = decimalAmount('a decimal amount such as 500.00');
const currencySchema = z.string({ error: required('a currency code such as usd') });
const maxAttemptsSchema = z.number({ error: required('a whole number of attempts from 1 to 1000') })
  .int('must be a whole number from 1 to 1000').min(1, 'must be from 1 to 1000').max(1000, 'must be from 1 to 1000');
const enabledSchema = z.boolean({ error: 'must be true or false' });
const descriptionSchema = z.string({ error: 'must be a string or null' }).trim().max(500, 'must be at most 500 characters').nullable();

/** What each rule type takes besides `type`, `enabled` and `description`. */
const PARAMETERS = {
  [FraudRuleType.CARD_COUNTRY]: { countries: listOf(countrySchema, 'country codes') },
  [FraudRuleType.CARD_BIN]: { bins: listOf(binSchema, 'BIN prefixes') },
  [FraudRuleType.EMAIL_DOMAIN]: { domains: listOf(domainSchema, 'email domains') },
  [FraudRuleType.AMOUNT_ABOVE]: { amount: amountSchema, currency: currencySchema },
  [FraudRuleType.VELOCITY_CARD]: { maxAttemptsPerHour: maxAttemptsSchema },
} as const;

type RuleParameters = { countries?: string[]; bins?: string[]; domains?: string[]; amount?: string | number; currency?: string; maxAttemptsPerHour?: number };

const typeSchema = z.object({
  type: z.enum(FraudRuleType, { error: required(`one of ${Object.values(FraudRuleType).join(', ')}`) }),
}, { error: 'must be a JSON object' });

const ruleSchema = (type: FraudRuleType, partial: boolean) => {
  const shape = { type: z.literal(type, { error: 'cannot be changed; delete the rule and create another' }).optional(), enabled: enabledSchema.optional(), description: descriptionSchema.optional(), ...PARAMETERS[type] };
  const schema = z.object(shape, { error: 'must be a JSON object' }).strict();
  return partial ? schema.partial() : schema;
};

const blocklistSchema = z.object({
  type: z.enum(BlocklistEntryType, { error: required(`one of ${Object.values(BlocklistEntryType).join(', ')}`) }),
  value: z.string({ error: required('the email, card fingerprint or IP address to block') }).trim().min(1, 'must not be empty').max(320),
  description: descriptionSchema.optional(),
}, { error: 'must be a JSON object' });

const blocklistListSchema = z.object({
  ...pageParams,
  type: enumFilter(BlocklistEntryType).optional(),
});

const blocklistConnectionSchema = z.object({ type: enumFilter(BlocklistEntryType).nullish() });

/** An IP address in canonical form (IPv4-mapped IPv6 as IPv4); null when it is not an address. */
export function canonicalIp(value: string | null | undefined): string | null {
  if (!value || !ipaddr.isValid(value)) return null;
  return ipaddr.process(value).toString();
}

const isUniqueViolation = (error: unknown) =>
  (error as { driverError?: { code?: string } } | null)?.driverError?.code === '23505';
const alreadyBlocked = () => new DomainError(ErrorCode.CONFLICT, 'This value is already on the block list', { value: ['is already blocked'] });

/**
 * Fraud screening per business and mode: rules (card country, BIN, email domain, amount, card
 * velocity) and a block list (email, card fingerprint, IP). `screen` runs inside the transaction
 * that records a charge, before the acquirer sees it, with two indexed queries.
 */
export class FraudService {
  // ---------------------------------------------------------------- screening

  /** The FraudScreen of PaymentService: why the attempt is blocked (stored as the payment's failureMessage), or null. */
  async screen(tx: RequestContext, attempt: ChargeAttempt): Promise<string | null> {
    const businessId = tx.requireBusiness();
    const email = attempt.email.toLowerCase();
    const ip = canonicalIp(attempt.ipAddress);
    const [entry]: Array<{ id: string; type: BlocklistEntryType; value: string }> = await tx.em.query(
      `SELECT id, type, value FROM fraud_blocklist
        WHERE business_id = $1 AND livemode = $2 AND (type, value) IN (('email', $3), ('card_fingerprint', $4), ('ip', $5))
        ORDER BY created_at, id LIMIT 1`,
      [businessId, tx.livemode, email, attempt.card.fingerprint, ip ?? ''],
    );
    if (entry) return `Blocked by block list entry ${entry.id}: ${entry.type.replace('_', ' ')} ${entry.value}`;

    const rules: Array<{ id: string; type: FraudRuleType; values: string[]; amount: string | null; currency: string | null; max_attempts_per_hour: number | null; attempts: string | null }> = await tx.em.query(
      `SELECT r.id, r.type, r.values, r.amount, r.currency, r.max_attempts_per_hour,
              CASE WHEN r.type = 'velocity_card' THEN (
                SELECT count(*) FROM payments p
                 WHERE p.livemode = $2 AND p.card_fingerprint = $3 AND p.created_at > now() - make_interval(secs => $4) AND p.business_id = $1
              ) END AS attempts
         FROM fraud_rules r
        WHERE r.business_id = $1 AND r.livemode = $2 AND r.enabled
        ORDER BY r.created_at, r.id`,
      [businessId, tx.livemode, attempt.card.fingerprint, VELOCITY_WINDOW_SECONDS],
    );
    const domain = email.slice(email.lastIndexOf('@') + 1);
    for (const rule of rules) {
      const blocked = `Blocked by fraud rule ${rule.id}`;
      switch (rule.type) {
        case FraudRuleType.CARD_COUNTRY:
          if (rule.values.includes(attempt.card.country)) return `${blocked}: card country ${attempt.card.country}`;
          break;
        case FraudRuleType.CARD_BIN: {
          const prefix = attempt.card.bin ? rule.values.find((value) => attempt.card.bin.startsWith(value)) : undefined;
          if (prefix) return `${blocked}: card BIN ${attempt.card.bin} starts with ${prefix}`;
          break;
        }
        case FraudRuleType.EMAIL_DOMAIN: {
          const match = rule.values.find((value) => domain === value || domain.endsWith(`.${value}`));
          if (match) return `${blocked}: email domain ${domain}`;
          break;
        }
        case FraudRuleType.AMOUNT_ABOVE:
          if (rule.currency === attempt.currency && rule.amount !== null && attempt.amount > BigInt(rule.amount)) {
            return `${blocked}: amount ${toMajor(attempt.amount, attempt.currency)} ${attempt.currency} is above ${toMajor(BigInt(rule.amount), rule.currency)} ${rule.currency}`;
          }
          break;
        case FraudRuleType.VELOCITY_CARD: {
          const attempts = Number(rule.attempts ?? 0);
          if (rule.max_attempts_per_hour !== null && attempts > rule.max_attempts_per_hour) {
            return `${blocked}: card made ${attempts} attempts in the last hour (limit ${rule.max_attempts_per_hour})`;
          }
          break;
        }
        default:
          break;
      }
    }
    return null;
  }

  // ---------------------------------------------------------------- rules

  async createRule(ctx: RequestContext, input: unknown): Promise<FraudRule> {
    ctx.requireRole(...WRITE_ROLES);
    const { type } = parseInput(typeSchema, input ?? {});
    const data = parseInput(ruleSchema(type, false), input) as RuleParameters & { enabled?: boolean; description?: string | null };
    const rule = new FraudRule();
    Object.assign(rule, { type, enabled: data.enabled ?? true, description: data.description ?? null, values: [], amount: null, currency: null, maxAttemptsPerHour: null });
    this.applyParameters(rule, data);
    return inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      await this.lockMode(tx);
      const count = await tx.repo(FraudRule).count({ where: { businessId, livemode: tx.livemode } });
      if (count >= MAX_RULES_PER_MODE) {
        throw new DomainError(ErrorCode.CONFLICT, `A business may have at most ${MAX_RULES_PER_MODE} fraud rules per mode; delete one first`);
      }
      return tx.repo(FraudRule).save(tx.repo(FraudRule).create({ ...rule, businessId, livemode: tx.livemode }));
    });
  }

  /** Every rule of the business and mode, in the order screening checks them (oldest first). */
  async listRules(ctx: RequestContext): Promise<FraudRule[]> {
    ctx.requireRole(...ALL_ROLES);
    return ctx.repo(FraudRule).find({ where: { businessId: ctx.requireBusiness(), livemode: ctx.livemode }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async getRule(ctx: RequestContext, id: string): Promise<FraudRule> {
    ctx.requireRole(...ALL_ROLES);
    return this.findRule(ctx, id);
  }

  /** Enables or disables a rule, or changes its description or parameters; its type stays. */
  async updateRule(ctx: RequestContext, id: string, input: unknown): Promise<FraudRule> {
    ctx.requireRole(...WRITE_ROLES);
    const existing = await this.findRule(ctx, id);
    const data = parseInput(ruleSchema(existing.type, true), input ?? {}) as RuleParameters & { enabled?: boolean; description?: string | null };
    return inTransaction(ctx, async (tx) => {
      const rule = await this.findRule(tx, id);
      if (data.enabled !== undefined) rule.enabled = data.enabled;
      if (data.description !== undefined) rule.description = data.description;
      this.applyParameters(rule, data);
      return tx.repo(FraudRule).save(rule);
    });
  }

  async deleteRule(ctx: RequestContext, id: string): Promise<FraudRule> {
    ctx.requireRole(...WRITE_ROLES);
    const rule = await this.findRule(ctx, id);
    await ctx.repo(FraudRule).delete({ id: rule.id });
    return rule;
  }

  // ---------------------------------------------------------------- block list

  /** Blocks an email, card fingerprint or IP address; 409 when it is already blocked. */
  async addToBlocklist(ctx: RequestContext, input: unknown): Promise<BlocklistEntry> {
    ctx.requireRole(...WRITE_ROLES);
    const data = parseInput(blocklistSchema, input ?? {});
    const value = this.normalizeBlockedValue(data.type, data.value);
    return inTransaction(ctx, async (tx) => {
      const scope = { businessId: tx.requireBusiness(), livemode: tx.livemode };
      if (await tx.repo(BlocklistEntry).exists({ where: { ...scope, type: data.type, value } })) throw alreadyBlocked();
      return tx.repo(BlocklistEntry).save(tx.repo(BlocklistEntry).create({ ...scope, type: data.type, value, description: data.description ?? null }));
    }).catch((error: unknown) => { throw isUniqueViolation(error) ? alreadyBlocked() : error; });
  }

  /** REST list: newest first; `page` from 1, `limit` up to 100, optional `type`. */
  async blocklistPage(ctx: RequestContext, query: unknown): Promise<{ items: BlocklistEntry[]; total: number; page: number; limit: number }> {
    ctx.requireRole(...ALL_ROLES);
    const filters = parseInput(blocklistListSchema, query ?? {});
    const page = filters.page ?? 1;
    const limit = filters.limit ?? 20;
    const [items, total] = await ctx.repo(BlocklistEntry).findAndCount({
      where: { businessId: ctx.requireBusiness(), livemode: ctx.livemode, ...(filters.type ? { type: filters.type } : {}) },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: (page - 1) * limit,
      take: limit,
    });
    return { items, total, page, limit };
  }

  /** GraphQL connection: newest first, keyset on (createdAt, id); the cursor carries the type filter. */
  async blocklistConnection(ctx: RequestContext, input: unknown, request: PageRequest): Promise<Page<BlocklistEntry>> {
    ctx.requireRole(...ALL_ROLES);
    const { type } = parseInput(blocklistConnectionSchema, input ?? {});
    const filters = { type: type ?? null };
    const query = newestFirst(ctx, BlocklistEntry, 'entry');
    if (type) query.andWhere('entry.type = :type', { type });
    return keysetPage(query, 'entry', request, filters);
  }

  async getBlocklistEntry(ctx: RequestContext, id: string): Promise<BlocklistEntry> {
    ctx.requireRole(...ALL_ROLES);
    return this.findEntry(ctx, id);
  }

  async removeFromBlocklist(ctx: RequestContext, id: string): Promise<BlocklistEntry> {
    ctx.requireRole(...WRITE_ROLES);
    const entry = await this.findEntry(ctx, id);
    await ctx.repo(BlocklistEntry).delete({ id: entry.id });
    return entry;
  }

  // ---------------------------------------------------------------- internals

  private applyParameters(rule: FraudRule, data: RuleParameters): void {
    if (data.countries) rule.values = data.countries;
    if (data.bins) rule.values = data.bins;
    if (data.domains) rule.values = data.domains;
    if (data.maxAttemptsPerHour !== undefined) rule.maxAttemptsPerHour = data.maxAttemptsPerHour;
    if (data.amount !== undefined || data.currency !== undefined) {
      if (data.currency === undefined && !rule.currency) throw validationError({ currency: ['is required: a currency code such as usd'] });
      if (data.amount === undefined && rule.amount === null) throw validationError({ amount: ['is required: a decimal amount such as 500.00'] });
      const currency = normalizeCurrency(data.currency ?? rule.currency!);
      const amount = data.amount !== undefined ? toMinor(data.amount, currency) : rule.amount!;
      rule.currency = currency;
      rule.amount = amount;
    }
  }

  private normalizeBlockedValue(type: BlocklistEntryType, raw: string): string {
    switch (type) {
      case BlocklistEntryType.EMAIL: {
        const email = emailSchema.safeParse(raw);
        if (!email.success) throw validationError({ value: ['must be a valid email address for type email'] });
        return email.data;
      }
      case BlocklistEntryType.IP: {
        const ip = canonicalIp(raw);
        if (!ip) throw validationError({ value: ['must be an IPv4 or IPv6 address for type ip'] });
        return ip;
      }
      default:
        if (!/^[A-Za-z0-9_-]{8,64}$/.test(raw)) throw validationError({ value: ['must be a card fingerprint as shown on a payment (card.fingerprint)'] });
        return raw;
    }
  }

  /** Serializes rule creations of one business and mode, so the limit holds under concurrency. */
  private async lockMode(tx: RequestContext): Promise<void> {
    await tx.repo(BusinessSettings).createQueryBuilder('settings').setLock('pessimistic_write')
      .where('settings.business_id = :businessId AND settings.livemode = :livemode', { businessId: tx.requireBusiness(), livemode: tx.livemode })
      .getOne();
  }

  private async findRule(ctx: RequestContext, id: string): Promise<FraudRule> {
    const rule = isUuid(id) ? await ctx.repo(FraudRule).findOne({ where: { id, businessId: ctx.requireBusiness(), livemode: ctx.livemode } }) : null;
    if (!rule) throw notFound('Fraud rule');
    return rule;
  }

  private async findEntry(ctx: RequestContext, id: string): Promise<BlocklistEntry> {
    const entry = isUuid(id) ? await ctx.repo(BlocklistEntry).findOne({ where: { id, businessId: ctx.requireBusiness(), livemode: ctx.livemode } }) : null;
    if (!entry) throw notFound('Block list entry');
    return entry;
  }
}
