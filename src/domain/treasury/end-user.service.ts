import { EventService } from '../events/event.service';
import { conflictOnUniqueViolation } from '../shared/unique-violation';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { EntityRows } from '../shared/rows';
import { findOwned } from '../shared/tenancy';
import { CreateEndUserCommand, EndUserFilters } from './treasury.commands';
import { EndUserStatus, TreasuryEndUser } from './treasury.entities';
import { TreasuryEvent, endUserObject, treasuryEventData } from './treasury.events';
import { requireTreasuryPartner } from '../identity';
import { TreasuryAccess, requireTreasuryAccess } from './treasury.settings';

const duplicateExternalId = (externalId: string) =>
  new DomainError(ErrorCode.CONFLICT, `An end-user with externalId "${externalId}" already exists`, {
    externalId: ['is already used by another end-user'],
  });

/**
 * A treasury partner's end-users (design section 10). Created `pending_kyc`; the KYC service moves
 * the status when a check is decided. `externalId` is unique per partner and mode by a unique
 * index, so two concurrent creates of the same one answer one 201 and one 409.
 */
export class EndUserService {
  constructor(private readonly events: EventService) {}

  /** The treasury product's refusals (role, partner, test credentials for sandbox helpers), for a face to ask before it reads input. */
  async assertAccess(ctx: RequestContext, access: TreasuryAccess): Promise<void> {
    await requireTreasuryAccess(ctx, access);
  }

  async create(ctx: RequestContext, command: CreateEndUserCommand): Promise<TreasuryEndUser> {
    ctx.requireRole(...WRITE_ROLES);
    await requireTreasuryPartner(ctx);
    const externalId = command.externalId.trim();
    if (externalId.length === 0 || externalId.length > 200)
      throw validationError({ externalId: ['must be 1 to 200 characters'] });
    return inTransaction(ctx, async (tx) => {
      const repo = tx.repo(TreasuryEndUser);
      const user = await repo
        .save(
          repo.create({
            businessId: tx.requireBusiness(),
            livemode: tx.livemode,
            externalId,
            email: command.email,
            name: command.name,
            phone: command.phone,
            metadata: command.metadata,
            status: EndUserStatus.PENDING_KYC,
          }),
        )
        .catch(conflictOnUniqueViolation(() => duplicateExternalId(externalId)));
      await this.events.record(
        tx,
        TreasuryEvent.END_USER_CREATED,
        treasuryEventData(user.livemode, endUserObject(user)),
      );
      return user;
    });
  }

  async get(ctx: RequestContext, endUserId: string): Promise<TreasuryEndUser> {
    ctx.requireRole(...ALL_ROLES);
    await requireTreasuryPartner(ctx);
    return findOwned(ctx, TreasuryEndUser, endUserId, 'End-user');
  }

  async list(ctx: RequestContext, filters: EndUserFilters, page: PageQuery): Promise<ListPage<TreasuryEndUser>> {
    ctx.requireRole(...ALL_ROLES);
    await requireTreasuryPartner(ctx);
    const query = newestFirst(ctx, TreasuryEndUser, 'end_user');
    if (filters.status) query.andWhere('end_user.status = :status', { status: filters.status });
    if (filters.externalId !== undefined)
      query.andWhere('end_user.external_id = :externalId', { externalId: filters.externalId });
    return paginate(query, 'end_user', page, {
      status: filters.status ?? null,
      externalId: filters.externalId ?? null,
    });
  }

  /** End-users of the context's partner and mode by id (the GraphQL loader's batch). */
  async byIds(ctx: RequestContext, ids: readonly string[]): Promise<TreasuryEndUser[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return EntityRows.of(ctx, TreasuryEndUser).select(
      ctx,
      'end_user',
      'WHERE end_user.id = ANY($1::uuid[]) AND end_user.business_id = $2 AND end_user.livemode = $3',
      [valid, ctx.requireBusiness(), ctx.livemode],
    );
  }
}
