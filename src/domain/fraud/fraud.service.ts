import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import type { ChargeAttempt } from '../payments';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, FieldErrors, validationError } from '../shared/errors';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { MAX_AMOUNT_MINOR, normalizeCurrency, toMajor, toMinor } from '../shared/money';
import { findOwned, lockOwned } from '../shared/tenancy';
import { conflictOnUniqueViolation } from '../shared/unique-violation';
import { BusinessSettings } from '../shared/business-settings.entity';
import {
  AddBlocklistEntryCommand,
  BlocklistFilters,
  CreateFraudRuleCommand,
  FraudRuleParameters,
  UpdateFraudRuleCommand,
} from './fraud.commands';
import { BlocklistEntry, BlocklistEntryType, FraudRule, FraudRuleType } from './fraud.entities';

/** At most this many rules per business and mode; creating one more is a CONFLICT. */
export const MAX_RULES_PER_MODE = 100;

/** The velocity rule's window. */
export const VELOCITY_WINDOW_SECONDS = 3600;

/** The parameter fields each rule type takes (an update may send any of its own, and no other). */
const PARAMETER_FIELDS: Record<FraudRuleType, ReadonlyArray<keyof UpdateFraudRuleCommand>> = {
  [FraudRuleType.CARD_COUNTRY]: ['countries'],
  [FraudRuleType.CARD_BIN]: ['bins'],
  [FraudRuleType.EMAIL_DOMAIN]: ['domains'],
  [FraudRuleType.AMOUNT_ABOVE]: ['amount', 'currency'],
  [FraudRuleType.VELOCITY_CARD]: ['maxAttemptsPerHour'],
};
const ALL_PARAMETER_FIELDS = ['countries', 'bins', 'domains', 'amount', 'currency', 'maxAttemptsPerHour'] as const;

/** What an update with another type's parameters hears (the message the faces give any unknown field). */
const FOREIGN_PARAMETERS_MESSAGE = 'must be a JSON object';

/** An IP address in canonical form (IPv4-mapped IPv6 as IPv4); null when it is not an address. */
export function canonicalIp(value: string | null | undefined): string | null {
  if (!value || !ipaddr.isValid(value)) return null;
  return ipaddr.process(value).toString();
}

const alreadyBlocked = () =>
  new DomainError(ErrorCode.CONFLICT, 'This value is already on the block list', { value: ['is already blocked'] });

/**
 * Fraud screening per business and mode: rules (card country, BIN, email domain, amount, card
 * velocity) and a block list (email, card fingerprint, IP). `screen` runs inside the transaction
 * that records a charge, before the acquirer sees it, with one query.
 */
export class FraudService {
  // ---------------------------------------------------------------- screening

  /** The FraudScreen of PaymentService: why the attempt is blocked (stored as the payment's failureMessage), or null. */
  async screen(tx: RequestContext, attempt: ChargeAttempt): Promise<string | null> {
    const businessId = tx.requireBusiness();
    const email = attempt.email.toLowerCase();
    const ip = canonicalIp(attempt.ipAddress);
    // One round trip for both (it runs in every charge's transaction): the oldest matching block
    // list entry, and the enabled rules in the order they are checked, as JSON.
    const [{ entry, rules }]: Array<{
      entry: { id: string; type: BlocklistEntryType; value: string } | null;
      rules: Array<{
        id: string;
        type: FraudRuleType;
        values: string[];
        amount: string | null;
        currency: string | null;
        max_attempts_per_hour: number | null;
        attempts: number | null;
      }>;
    }> = await tx.em.query(
      `SELECT
         (SELECT row_to_json(b) FROM (
            SELECT id, type, value FROM fraud_blocklist
             WHERE business_id = $1 AND livemode = $2 AND (type, value) IN (('email', $3), ('card_fingerprint', $4), ('ip', $5))
             ORDER BY created_at, id LIMIT 1) b) AS entry,
         (SELECT coalesce(json_agg(r ORDER BY r.created_at, r.id), '[]') FROM (
            SELECT r.id, r.type, r.values, r.amount::text AS amount, r.currency, r.max_attempts_per_hour, r.created_at,
                   CASE WHEN r.type = 'velocity_card' THEN (
                     SELECT count(*) FROM payments p
                      WHERE p.livemode = $2 AND p.card_fingerprint = $4 AND p.created_at > now() - make_interval(secs => $6) AND p.business_id = $1
                   ) END AS attempts
              FROM fraud_rules r
             WHERE r.business_id = $1 AND r.livemode = $2 AND r.enabled) r) AS rules`,
      [businessId, tx.livemode, email, attempt.card.fingerprint, ip ?? '', VELOCITY_WINDOW_SECONDS],
    );
    if (entry) return `Blocked by block list entry ${entry.id}: ${entry.type.replace('_', ' ')} ${entry.value}`;

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

  async createRule(ctx: RequestContext, command: CreateFraudRuleCommand): Promise<FraudRule> {
    ctx.requireRole(...WRITE_ROLES);
    const parameters = this.storedParameters(command);
    return inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      await this.lockMode(tx);
      const count = await tx.repo(FraudRule).count({ where: { businessId, livemode: tx.livemode } });
      if (count >= MAX_RULES_PER_MODE) {
        throw new DomainError(
          ErrorCode.CONFLICT,
          `A business may have at most ${MAX_RULES_PER_MODE} fraud rules per mode; delete one first`,
        );
      }
      return tx.repo(FraudRule).save(
        tx.repo(FraudRule).create({
          ...parameters,
          type: command.type,
          enabled: command.enabled ?? true,
          description: command.description ?? null,
          businessId,
          livemode: tx.livemode,
        }),
      );
    });
  }

  /** Every rule of the business and mode, in the order screening checks them (oldest first); never paged (at most 100). */
  async listRules(ctx: RequestContext): Promise<FraudRule[]> {
    ctx.requireRole(...ALL_ROLES);
    return ctx.repo(FraudRule).find({
      where: { businessId: ctx.requireBusiness(), livemode: ctx.livemode },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  async getRule(ctx: RequestContext, id: string): Promise<FraudRule> {
    ctx.requireRole(...ALL_ROLES);
    return findOwned(ctx, FraudRule, id, 'Fraud rule');
  }

  /**
   * Enables or disables a rule, or changes its description or the parameters of its type; its type
   * stays. Parameters of another type are refused, and an amount is read in the rule's currency
   * (or in the currency sent with it).
   */
  async updateRule(ctx: RequestContext, command: UpdateFraudRuleCommand): Promise<FraudRule> {
    ctx.requireRole(...WRITE_ROLES);
    this.assertOwnParameters(await findOwned(ctx, FraudRule, command.id, 'Fraud rule'), command);
    return inTransaction(ctx, async (tx) => {
      const rule = await lockOwned(tx, FraudRule, command.id, 'Fraud rule');
      if (command.enabled !== undefined) rule.enabled = command.enabled;
      if (command.description !== undefined) rule.description = command.description;
      this.applyChanges(rule, command);
      return tx.repo(FraudRule).save(rule);
    });
  }

  async deleteRule(ctx: RequestContext, id: string): Promise<FraudRule> {
    ctx.requireRole(...WRITE_ROLES);
    const rule = await findOwned(ctx, FraudRule, id, 'Fraud rule');
    await ctx.repo(FraudRule).delete({ id: rule.id });
    return rule;
  }

  // ---------------------------------------------------------------- block list

  /** Blocks an email, card fingerprint or IP address; 409 when it is already blocked. */
  async addToBlocklist(ctx: RequestContext, command: AddBlocklistEntryCommand): Promise<BlocklistEntry> {
    ctx.requireRole(...WRITE_ROLES);
    const value = this.normalizeBlockedValue(command.type, command.value);
    return inTransaction(ctx, async (tx) => {
      const scope = { businessId: tx.requireBusiness(), livemode: tx.livemode };
      if (await tx.repo(BlocklistEntry).exists({ where: { ...scope, type: command.type, value } }))
        throw alreadyBlocked();
      return tx
        .repo(BlocklistEntry)
        .save(
          tx
            .repo(BlocklistEntry)
            .create({ ...scope, type: command.type, value, description: command.description ?? null }),
        );
    }).catch(conflictOnUniqueViolation(alreadyBlocked));
  }

  /** The block list, newest first; keyset cursors carry the type filter. */
  async listBlocklist(
    ctx: RequestContext,
    filters: BlocklistFilters,
    page: PageQuery,
  ): Promise<ListPage<BlocklistEntry>> {
    ctx.requireRole(...ALL_ROLES);
    const query = newestFirst(ctx, BlocklistEntry, 'entry');
    if (filters.type) query.andWhere('entry.type = :type', { type: filters.type });
    return paginate(query, 'entry', page, { type: filters.type ?? null });
  }

  async getBlocklistEntry(ctx: RequestContext, id: string): Promise<BlocklistEntry> {
    ctx.requireRole(...ALL_ROLES);
    return findOwned(ctx, BlocklistEntry, id, 'Block list entry');
  }

  async removeFromBlocklist(ctx: RequestContext, id: string): Promise<BlocklistEntry> {
    ctx.requireRole(...WRITE_ROLES);
    const entry = await findOwned(ctx, BlocklistEntry, id, 'Block list entry');
    await ctx.repo(BlocklistEntry).delete({ id: entry.id });
    return entry;
  }

  // ---------------------------------------------------------------- internals

  /** The columns of a new rule's parameters; an amount must be in a supported currency and within the maximum. */
  private storedParameters(
    parameters: FraudRuleParameters,
  ): Pick<FraudRule, 'values' | 'amount' | 'currency' | 'maxAttemptsPerHour'> {
    const none = { values: [], amount: null, currency: null, maxAttemptsPerHour: null };
    switch (parameters.type) {
      case FraudRuleType.CARD_COUNTRY:
        return { ...none, values: parameters.countries };
      case FraudRuleType.CARD_BIN:
        return { ...none, values: parameters.bins };
      case FraudRuleType.EMAIL_DOMAIN:
        return { ...none, values: parameters.domains };
      case FraudRuleType.VELOCITY_CARD:
        return { ...none, maxAttemptsPerHour: parameters.maxAttemptsPerHour };
      case FraudRuleType.AMOUNT_ABOVE: {
        const currency = normalizeCurrency(parameters.currency);
        if (parameters.amount < 0n) throw validationError({ amount: ['must not be negative'] });
        if (parameters.amount > MAX_AMOUNT_MINOR) throw validationError({ amount: ['is too large'] });
        return { ...none, amount: parameters.amount, currency };
      }
      default:
        throw new Error('unknown fraud rule type');
    }
  }

  /** An update names the rule's own type (if any) and only parameters of that type. */
  private assertOwnParameters(rule: FraudRule, command: UpdateFraudRuleCommand): void {
    const errors: FieldErrors = {};
    const ruleType: string = rule.type;
    if (command.type !== undefined && command.type !== ruleType)
      errors.type = ['cannot be changed; delete the rule and create another'];
    const foreign = ALL_PARAMETER_FIELDS.filter(
      (field) => command[field] !== undefined && !PARAMETER_FIELDS[rule.type].includes(field),
    );
    if (foreign.length > 0) errors._ = [FOREIGN_PARAMETERS_MESSAGE];
    if (Object.keys(errors).length > 0) throw validationError(errors);
  }

  private applyChanges(rule: FraudRule, command: UpdateFraudRuleCommand): void {
    const values = command.countries ?? command.bins ?? command.domains;
    if (values) rule.values = values;
    if (command.maxAttemptsPerHour !== undefined) rule.maxAttemptsPerHour = command.maxAttemptsPerHour;
    if (command.amount !== undefined || command.currency !== undefined) {
      const currency = normalizeCurrency(command.currency ?? rule.currency!);
      rule.amount = command.amount !== undefined ? toMinor(command.amount, currency) : rule.amount!;
      rule.currency = currency;
    }
  }

  private normalizeBlockedValue(type: BlocklistEntryType, raw: string): string {
    switch (type) {
      case BlocklistEntryType.EMAIL: {
        const email = raw.trim().toLowerCase();
        if (!z.regexes.email.test(email) || email.length > 254)
          throw validationError({ value: ['must be a valid email address for type email'] });
        return email;
      }
      case BlocklistEntryType.IP: {
        const ip = canonicalIp(raw);
        if (!ip) throw validationError({ value: ['must be an IPv4 or IPv6 address for type ip'] });
        return ip;
      }
      default:
        if (!/^[A-Za-z0-9_-]{8,64}$/.test(raw))
          throw validationError({ value: ['must be a card fingerprint as shown on a payment (card.fingerprint)'] });
        return raw;
    }
  }

  /** Serializes rule creations of one business and mode, so the limit holds under concurrency. */
  private async lockMode(tx: RequestContext): Promise<void> {
    await tx
      .repo(BusinessSettings)
      .createQueryBuilder('settings')
      .setLock('pessimistic_write')
      .where('settings.business_id = :businessId AND settings.livemode = :livemode', {
        businessId: tx.requireBusiness(),
        livemode: tx.livemode,
      })
      .getOne();
  }
}
