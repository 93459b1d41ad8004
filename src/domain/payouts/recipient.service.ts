import { ProviderRegistry } from '../../providers/registry';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { SecretBox } from '../shared/crypto';
import { DomainError, notFound, validationError } from '../shared/errors';
import { PayoutsErrorCode } from './payouts.errors';
import { isUuid } from '../shared/ids';
import { normalizeCurrency } from '../shared/money';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { EntityRows } from '../shared/rows';
import { findOwned } from '../shared/tenancy';
import { CreateRecipientCommand, RecipientDetails, RecipientFilters } from './payout.commands';
import { DestinationMasked, MaskedDetails, Recipient } from './payout.entities';
import { MAX_LABEL_LENGTH } from './payouts.settings';
import { madeEarlier } from '../idempotency';

/** The text as itself inside a LIKE pattern: its %, _ and \ are not wildcards. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

const COUNTRY = /^[A-Z]{2}$/;
const PHONE = /^\+?[0-9]{7,15}$/;
const ACCOUNT_NUMBER = /^[A-Z0-9]{4,34}$/;
const CRYPTO_CURRENCIES = new Set(['USDC']);
const CHAINS = new Set(['ethereum', 'polygon', 'base', 'arbitrum', 'optimism', 'solana', 'stellar', 'tron']);
const EVM_CHAINS = new Set(['ethereum', 'polygon', 'base', 'arbitrum', 'optimism']);

/** Only the last 4 characters show. */
export const maskTail = (value: string) => `****${value.slice(-4)}`;

/**
 * The rules of a destination's account fields, beyond their shape (which the faces check): the
 * normalised form every lookup and the destination's identity use. Field errors are keyed
 * `details.<field>`.
 */
export function normalizeDetails(details: RecipientDetails): RecipientDetails {
  const errors: Record<string, string[]> = {};
  const text = (value: string) => value.trim().replace(/\s+/g, ' ');
  const country = (value: string) => {
    const code = value.trim().toUpperCase();
    if (!COUNTRY.test(code)) errors['details.country'] = ['must be an ISO 3166-1 alpha-2 country code such as "NG"'];
    return code;
  };
  const currency = (value: string) => {
    try {
      return normalizeCurrency(value, 'details.currency');
    } catch (error) {
      if (error instanceof DomainError && error.fieldErrors) Object.assign(errors, error.fieldErrors);
      return value;
    }
  };
  let normalized: RecipientDetails;
  switch (details.rail) {
    case 'LOCAL_BANK': {
      const accountNumber = details.accountNumber.replace(/[\s-]/g, '').toUpperCase();
      if (!ACCOUNT_NUMBER.test(accountNumber))
        errors['details.accountNumber'] = ['must be 4 to 34 letters or digits (spaces and dashes are ignored)'];
      normalized = {
        rail: 'LOCAL_BANK',
        country: country(details.country),
        currency: currency(details.currency),
        bankCode: details.bankCode.trim().toUpperCase(),
        bankName: text(details.bankName),
        accountNumber,
        accountName: text(details.accountName),
      };
      break;
    }
    case 'MOBILE_MONEY': {
      const phone = details.phone.replace(/[\s()-]/g, '');
      if (!PHONE.test(phone))
        errors['details.phone'] = ['must be a phone number in international format, such as "+233241234567"'];
      normalized = {
        rail: 'MOBILE_MONEY',
        country: country(details.country),
        currency: currency(details.currency),
        networkId: details.networkId.trim().toLowerCase(),
        phone: phone.startsWith('+') ? phone : `+${phone}`,
        accountName: text(details.accountName),
      };
      break;
    }
    case 'CRYPTO': {
      const chain = details.chain.trim().toLowerCase();
      if (!CHAINS.has(chain)) errors['details.chain'] = [`must be one of ${[...CHAINS].join(', ')}`];
      const code = currency(details.currency);
      if (!CRYPTO_CURRENCIES.has(code))
        errors['details.currency'] = [`must be one of ${[...CRYPTO_CURRENCIES].join(', ')} for CRYPTO`];
      const address = details.address.trim();
      if (EVM_CHAINS.has(chain) && !/^0x[0-9a-fA-F]{40}$/.test(address))
        errors['details.address'] = [`is not a ${chain} address (0x followed by 40 hex digits)`];
      else if (!/^[A-Za-z0-9]{20,100}$/.test(address))
        errors['details.address'] = ['must be 20 to 100 letters or digits'];
      // EVM addresses are case-insensitive (the mixed case is only a checksum): one destination, one form.
      normalized = {
        rail: 'CRYPTO',
        chain,
        address: EVM_CHAINS.has(chain) ? address.toLowerCase() : address,
        currency: code,
      };
      break;
    }
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return normalized;
}

/** The destination's identity: the rail and its normalised account fields (not the names or labels). */
export const destinationIdentity = (details: RecipientDetails): string => {
  switch (details.rail) {
    case 'LOCAL_BANK':
      return ['LOCAL_BANK', details.country, details.currency, details.bankCode, details.accountNumber].join('|');
    case 'MOBILE_MONEY':
      return ['MOBILE_MONEY', details.country, details.currency, details.networkId, details.phone].join('|');
    case 'CRYPTO':
      return ['CRYPTO', details.chain, details.currency, details.address].join('|');
  }
};

export function maskDetails(details: RecipientDetails): MaskedDetails {
  switch (details.rail) {
    case 'LOCAL_BANK':
      return { ...details, accountNumber: maskTail(details.accountNumber) };
    case 'MOBILE_MONEY':
      return { ...details, phone: maskTail(details.phone) };
    case 'CRYPTO':
      return { ...details, address: maskTail(details.address) };
  }
}

/** The payout's `destinationMasked`: country, masked account number, bank name (the network or the chain for other rails). */
export function destinationMaskedOf(details: RecipientDetails): DestinationMasked {
  switch (details.rail) {
    case 'LOCAL_BANK':
      return { country: details.country, accountNumber: maskTail(details.accountNumber), bankName: details.bankName };
    case 'MOBILE_MONEY':
      return { country: details.country, accountNumber: maskTail(details.phone), bankName: details.networkId };
    case 'CRYPTO':
      return { country: '', accountNumber: maskTail(details.address), bankName: details.chain };
  }
}

/** A name as screening compares it. */
const screenedName = (name: string) => name.trim().toLowerCase();

export interface CreatedRecipient {
  recipient: Recipient;
  /** False when the destination was already a recipient (answered 200, not 201). */
  created: boolean;
}

/**
 * Payout recipients. The same destination (rail + normalised account fields) is one recipient:
 * the unique destination key decides under concurrent creates, never a read-then-write.
 */
export class RecipientService {
  constructor(
    private readonly providers: ProviderRegistry,
    private readonly secretBox: SecretBox,
  ) {}

  async create(ctx: RequestContext, command: CreateRecipientCommand): Promise<CreatedRecipient> {
    ctx.requireRole(...WRITE_ROLES);
    const earlier = await madeEarlier(ctx, 'recipient', Recipient);
    if (earlier) return { recipient: earlier, created: true };
    const label = command.label.trim();
    if (label.length === 0 || label.length > MAX_LABEL_LENGTH)
      throw validationError({ label: [`must be 1 to ${MAX_LABEL_LENGTH} characters`] });
    const details = normalizeDetails(command.details);
    const key = this.secretBox.mac(destinationIdentity(details));
    const screened = await this.screenForDashboard(ctx, label, details, key);
    const screenedAt = screened?.at ?? null;
    return inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      const inserted: Array<{ id: string }> = await tx.em.query(
        `INSERT INTO payout_recipients (business_id, livemode, label, rail, currency, country, destination_key, details_sealed, details_masked, screened_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10)
         ON CONFLICT (business_id, livemode, destination_key) DO NOTHING RETURNING id`,
        [
          businessId,
          tx.livemode,
          label,
          details.rail,
          details.currency,
          'country' in details ? details.country : null,
          key,
          this.secretBox.seal(JSON.stringify(details)),
          JSON.stringify(maskDetails(details)),
          screenedAt,
        ],
      );
      if (inserted.length > 0) {
        // Only a recipient this request made is named: a retry answers it, created.
        await tx.idempotency?.recordResource(tx, 'recipient', inserted[0].id);
        return { recipient: await tx.repo(Recipient).findOneByOrFail({ id: inserted[0].id }), created: true };
      }
      // The destination is already a recipient: that one is the answer. A screened create marks a
      // never-screened one, only when every name stored on it was among the names screened clean
      // (an API-key create may have stored other names), and a create brings an archived one back into use.
      const [existing] = await EntityRows.of(tx, Recipient).select(
        tx,
        'recipient',
        `WHERE recipient.business_id = $1 AND recipient.livemode = $2 AND recipient.destination_key = $3 FOR UPDATE`,
        [businessId, tx.livemode, key],
      );
      const changes: Partial<Recipient> = {};
      if (screened && !existing.screenedAt && this.namesOf(existing).every((name) => screened.names.has(name)))
        changes.screenedAt = screened.at;
      if (existing.archivedAt) changes.archivedAt = null;
      if (Object.keys(changes).length > 0) await tx.repo(Recipient).update({ id: existing.id }, changes);
      return {
        recipient:
          Object.keys(changes).length > 0 ? await tx.repo(Recipient).findOneByOrFail({ id: existing.id }) : existing,
        created: false,
      };
    });
  }

  /**
   * Dashboard creates are screened (a match refuses with 403 SANCTIONS_MATCH, before anything is
   * stored); API-key creates are never screened and never refused on a screening result (interface
   * document, Create a payout recipient).
   */
  /**
   * When the destination is already a never-screened recipient (an API-key create), the names
   * stored on it are screened too: a dashboard create never marks as screened, nor answers with,
   * a recipient whose own names were not screened clean. Answers the names screened clean (trimmed,
   * lower case) and when.
   */
  private async screenForDashboard(
    ctx: RequestContext,
    label: string,
    details: RecipientDetails,
    key: string,
  ): Promise<{ at: Date; names: Set<string> } | null> {
    if (ctx.actor.kind !== 'dashboard') return null;
    const screening = this.providers.providerFor(ctx, 'screening');
    const country = 'country' in details ? details.country : null;
    const requested = details.rail === 'CRYPTO' ? [label] : [label, details.accountName];
    const [stored] = await EntityRows.of(ctx, Recipient).select(
      ctx,
      'recipient',
      `WHERE recipient.business_id = $1 AND recipient.livemode = $2 AND recipient.destination_key = $3`,
      [ctx.requireBusiness(), ctx.livemode, key],
    );
    const names = stored && !stored.screenedAt ? [...requested, ...this.namesOf(stored)] : requested;
    const result = await screening.screen({ names, country, businessId: ctx.businessId, request: 'recipient' });
    if (result.match)
      throw new DomainError(
        PayoutsErrorCode.SANCTIONS_MATCH,
        'The recipient matches a sanctions list; it was not saved',
      );
    return { at: new Date(), names: new Set(names.map(screenedName)) };
  }

  /** The names screening looks at on a stored recipient (label, and the account holder's name but for crypto), as compared. */
  private namesOf(recipient: Recipient): string[] {
    const details = this.detailsOf(recipient);
    return (details.rail === 'CRYPTO' ? [recipient.label] : [recipient.label, details.accountName]).map(screenedName);
  }

  async get(ctx: RequestContext, recipientId: string): Promise<Recipient> {
    ctx.requireRole(...ALL_ROLES);
    return findOwned(ctx, Recipient, recipientId, 'Recipient');
  }

  async list(ctx: RequestContext, filters: RecipientFilters, page: PageQuery): Promise<ListPage<Recipient>> {
    ctx.requireRole(...ALL_ROLES);
    const query = newestFirst(ctx, Recipient, 'recipient');
    if (filters.rail) query.andWhere('recipient.rail = :rail', { rail: filters.rail });
    if (!filters.includeArchived) query.andWhere('recipient.archived_at IS NULL');
    const search = filters.search?.trim() ?? '';
    if (search.length > MAX_LABEL_LENGTH)
      throw validationError({ search: [`must be at most ${MAX_LABEL_LENGTH} characters`] });
    if (search) query.andWhere(`recipient.label ILIKE :pattern ESCAPE '\\'`, { pattern: `%${likeLiteral(search)}%` });
    return paginate(query, 'recipient', page, {
      rail: filters.rail ?? null,
      includeArchived: filters.includeArchived ?? false,
      search: search || null,
    });
  }

  /** Archives the recipient (it takes no new payouts); archiving again changes nothing. */
  async archive(ctx: RequestContext, recipientId: string): Promise<Recipient> {
    ctx.requireRole(...WRITE_ROLES);
    if (!isUuid(recipientId)) throw notFound('Recipient');
    const rows: Array<{ id: string }> = await ctx.em.query(
      `UPDATE payout_recipients SET archived_at = coalesce(archived_at, now()), updated_at = CASE WHEN archived_at IS NULL THEN now() ELSE updated_at END
       WHERE id = $1 AND business_id = $2 AND livemode = $3 RETURNING id`,
      [recipientId, ctx.requireBusiness(), ctx.livemode],
    );
    const updated = Array.isArray(rows[0]) ? (rows[0] as Array<{ id: string }>) : rows;
    if (updated.length === 0) throw notFound('Recipient');
    return ctx.repo(Recipient).findOneByOrFail({ id: recipientId });
  }

  /** A recipient that takes payouts: the context's own and not archived (404 otherwise). */
  async payable(
    ctx: RequestContext,
    recipientId: string,
  ): Promise<{ recipient: Recipient; details: RecipientDetails }> {
    const recipient = await findOwned(ctx, Recipient, recipientId, 'Recipient');
    if (recipient.archivedAt) throw notFound('Recipient');
    return { recipient, details: this.detailsOf(recipient) };
  }

  /** The full account details (for the rail only). */
  detailsOf(recipient: Recipient): RecipientDetails {
    return JSON.parse(this.secretBox.open(recipient.detailsSealed)) as RecipientDetails;
  }

  /** Recipients of the context's business and mode by id (the GraphQL loader's batch). */
  async byIds(ctx: RequestContext, ids: readonly string[]): Promise<Recipient[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return EntityRows.of(ctx, Recipient).select(
      ctx,
      'recipient',
      'WHERE recipient.id = ANY($1::uuid[]) AND recipient.business_id = $2 AND recipient.livemode = $3',
      [valid, ctx.requireBusiness(), ctx.livemode],
    );
  }
}
