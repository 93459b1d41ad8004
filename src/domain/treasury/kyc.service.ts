import crypto from 'node:crypto';
import { ProviderRegistry } from '../../providers/registry';
import { EventService } from '../events/event.service';
import { TesseraPubSub } from '../events/pubsub';
import { TreasuryKycChange, TreasuryTopic } from './treasury.topics';
import { Business, requireTreasuryPartner } from '../identity';
import { Mode } from '../shared/modes';
import { isUniqueViolationOf } from '../shared/unique-violation';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { ErrorCode, notFound, validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { EntityRows } from '../shared/rows';
import { findOwned } from '../shared/tenancy';
import { DecideKycOnPageCommand, KycCheckFilters, RejectKycCommand, StartKycCommand } from './treasury.commands';
import { KycLevel, KycStatus, TreasuryEndUser, TreasuryKycCheck } from './treasury.entities';
import { TreasuryEvent, kycObject, treasuryEventData } from './treasury.events';
import { END_USER_STATUS_OF_KYC, KycAction, NOT_STARTED, kycTransition } from './kyc.states';

/** The sandbox page's token: `kyc_test_` + 24 random bytes (live checks have no Tessera page). */
const HOSTED_TOKEN = /^kyc_test_[A-Za-z0-9_-]{32}$/;

export const MAX_REASONS = 10;
export const MAX_REASON_LENGTH = 200;
const PAGE_REJECTION_REASON = 'rejected_on_sandbox_page';

/** The sandbox's hosted KYC page: the check, its end-user and the partner's name. */
export interface KycPage {
  check: TreasuryKycCheck;
  endUser: TreasuryEndUser;
  partnerName: string;
}

export interface StartedKyc {
  check: TreasuryKycCheck;
  /** False when the end-user already had a PENDING check: that one is answered. */
  created: boolean;
}

const isPendingViolation = (error: unknown) => isUniqueViolationOf(error, 'uq_treasury_kyc_checks_pending');

function checkedReasons(reasons: string[]): string[] {
  const trimmed = reasons.map((reason) => reason.trim());
  if (trimmed.length === 0 || trimmed.length > MAX_REASONS)
    throw validationError({ reasons: [`must list 1 to ${MAX_REASONS} reasons`] });
  if (trimmed.some((reason) => reason.length === 0 || reason.length > MAX_REASON_LENGTH)) {
    throw validationError({ reasons: [`each reason must be 1 to ${MAX_REASON_LENGTH} characters`] });
  }
  return trimmed;
}

/**
 * KYC of treasury end-users (design section 10): a check is started through the KYC provider
 * (outside any transaction), stays PENDING until decided, and the end-user's status follows the
 * decision in the same transaction as the check, its event and nothing else. In the sandbox the
 * tester decides, on the hosted page behind `kycLinkUrl` or with sandbox approve / reject.
 */
export class KycService {
  constructor(
    private readonly settings: { publicBaseUrl: string },
    private readonly providers: ProviderRegistry,
    private readonly events: EventService,
    private readonly pubSub: TesseraPubSub,
  ) {}

  /**
   * Starts a check: a new one when the end-user has none or its latest was REJECTED (the end-user
   * is pending_kyc again); the PENDING one when there is one (created false); 409 once APPROVED.
   */
  async start(ctx: RequestContext, command: StartKycCommand): Promise<StartedKyc> {
    ctx.requireRole(...WRITE_ROLES);
    await requireTreasuryPartner(ctx);
    const endUser = await findOwned(ctx, TreasuryEndUser, command.endUserId, 'End-user');
    const provider = this.providers.providerFor(ctx, 'kyc');
    const latest = await this.latestOf(ctx, endUser.id);
    // Starting while a check is PENDING leads where it is: that check stands. APPROVED refuses (409).
    if (latest?.status === kycTransition(latest?.status ?? NOT_STARTED, 'start'))
      return { check: latest, created: false };
    const checkId = crypto.randomUUID();
    const level = command.level ?? KycLevel.BASIC;
    const started = await provider.start({
      checkId,
      endUserId: endUser.id,
      level,
      email: endUser.email,
      name: endUser.name,
    });
    const hostedToken = `kyc_${ctx.livemode ? 'live' : 'test'}_${crypto.randomBytes(24).toString('base64url')}`;
    try {
      const check = await inTransaction(ctx, async (tx) => {
        const repo = tx.repo(TreasuryKycCheck);
        const check = await repo.save(
          repo.create({
            id: checkId,
            businessId: tx.requireBusiness(),
            livemode: tx.livemode,
            endUserId: endUser.id,
            level,
            status: KycStatus.PENDING,
            rejectionReasons: [],
            provider: provider.name,
            providerRef: started.providerRef,
            hostedToken,
            kycLinkUrl: started.hostedUrl ?? `${this.settings.publicBaseUrl}/kyc/${hostedToken}`,
            decidedAt: null,
          }),
        );
        await tx.em.query(`UPDATE treasury_end_users SET status = $2, updated_at = now() WHERE id = $1`, [
          endUser.id,
          END_USER_STATUS_OF_KYC.PENDING,
        ]);
        this.announce(tx, check, null, ['status']);
        return check;
      });
      return { check, created: true };
    } catch (error) {
      // A concurrent start won: its PENDING check is the end-user's check.
      if (!isPendingViolation(error)) throw error;
      const pending = await this.latestOf(ctx, endUser.id);
      if (!pending) throw error;
      return { check: pending, created: false };
    }
  }

  /** The end-user's KYC record: its latest check (404 when none was started). */
  async get(ctx: RequestContext, endUserId: string): Promise<TreasuryKycCheck> {
    ctx.requireRole(...ALL_ROLES);
    await requireTreasuryPartner(ctx);
    const endUser = await findOwned(ctx, TreasuryEndUser, endUserId, 'End-user');
    const latest = await this.latestOf(ctx, endUser.id);
    if (!latest) throw notFound('KYC check');
    return latest;
  }

  /** Sandbox only (test credentials, else 403): approves the end-user's PENDING check (else 409). */
  async sandboxApprove(ctx: RequestContext, endUserId: string): Promise<TreasuryKycCheck> {
    ctx.requireRole(...WRITE_ROLES);
    await requireTreasuryPartner(ctx);
    ctx.requireSandbox();
    return this.decide(ctx, endUserId, 'approve', []);
  }

  /** Sandbox only (test credentials, else 403): rejects the end-user's PENDING check (else 409) with the reasons. */
  async sandboxReject(ctx: RequestContext, command: RejectKycCommand): Promise<TreasuryKycCheck> {
    ctx.requireRole(...WRITE_ROLES);
    await requireTreasuryPartner(ctx);
    ctx.requireSandbox();
    return this.decide(ctx, command.endUserId, 'reject', checkedReasons(command.reasons));
  }

  /** The sandbox's hosted KYC page behind `kycLinkUrl`: the token is the capability (404 for anything else). */
  async hostedPage(ctx: RequestContext, token: string): Promise<KycPage> {
    const check = HOSTED_TOKEN.test(token)
      ? await ctx.repo(TreasuryKycCheck).findOne({ where: { hostedToken: token, livemode: false } })
      : null;
    if (!check) throw notFound('KYC check');
    const endUser = await ctx.repo(TreasuryEndUser).findOneByOrFail({ id: check.endUserId });
    const partner = await ctx.repo(Business).findOneByOrFail({ id: check.businessId });
    return { check, endUser, partnerName: partner.name };
  }

  /** The tester's decision on the hosted page: the same rules as sandbox approve / reject (PENDING only, else 409). */
  async decideOnPage(ctx: RequestContext, command: DecideKycOnPageCommand): Promise<KycPage> {
    const { check } = await this.hostedPage(ctx, command.token);
    const partner = ctx.asSystem('hosted-kyc', check.businessId, Mode.TEST);
    const reasons =
      command.decision === 'reject'
        ? checkedReasons(command.reasons.length > 0 ? command.reasons : [PAGE_REJECTION_REASON])
        : [];
    await this.decide(partner, check.endUserId, command.decision, reasons, check.id);
    return this.hostedPage(ctx, command.token);
  }

  /**
   * A live KYC provider's decision (Bridge's webhooks), for the check whose reference it names
   * (`providerRef`, Bridge's customer id): the end-user's latest live check of that provider and
   * reference, if it is still PENDING, is decided through the same path as every decision (check,
   * end-user status and treasury.kyc.approved / rejected in the caller's transaction). A decision on
   * a check already decided (a repeat, or a later status after the final one) or on no check of
   * Tessera's is not applied: the answer says why.
   */
  async applyProviderDecision(
    tx: RequestContext,
    command: { provider: string; providerRef: string; decision: 'approve' | 'reject'; reasons: string[] },
  ): Promise<{ decided: TreasuryKycCheck } | { ignored: string }> {
    const check = await tx.repo(TreasuryKycCheck).findOne({
      where: { provider: command.provider, providerRef: command.providerRef, livemode: true },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
    if (!check) return { ignored: `no KYC check of ${command.provider} customer ${command.providerRef}` };
    if (check.status !== KycStatus.PENDING) return { ignored: `KYC check ${check.id} is ${check.status} already` };
    const partner = tx.forBusiness(check.businessId, Mode.LIVE);
    const reasons =
      command.decision === 'reject'
        ? (command.reasons.length > 0 ? command.reasons : ['rejected_by_provider'])
            .slice(0, MAX_REASONS)
            .map((reason) => reason.slice(0, MAX_REASON_LENGTH))
        : [];
    // Two of Bridge's events of the same decision (its KYC link's and its customer's) may be applied
    // at once: the check is locked in `decide`, and the one that finds it decided already is ignored.
    try {
      return { decided: await this.decide(partner, check.endUserId, command.decision, reasons, check.id) };
    } catch (error) {
      if ((error as { code?: string }).code === ErrorCode.CONFLICT)
        return { ignored: `KYC check ${check.id} was decided meanwhile` };
      throw error;
    }
  }

  /** The end-user's checks, newest first (the first is its KYC record; earlier ones were REJECTED). */
  async list(ctx: RequestContext, filters: KycCheckFilters, page: PageQuery): Promise<ListPage<TreasuryKycCheck>> {
    ctx.requireRole(...ALL_ROLES);
    await requireTreasuryPartner(ctx);
    const endUser = await findOwned(ctx, TreasuryEndUser, filters.endUserId, 'End-user');
    const query = newestFirst(ctx, TreasuryKycCheck, 'kyc').andWhere('kyc.end_user_id = :endUserId', {
      endUserId: endUser.id,
    });
    return paginate(query, 'kyc', page, { endUserId: endUser.id });
  }

  /** The latest check of each end-user of the context's partner and mode (the GraphQL loader's batch; none for an end-user without one). */
  async latestOfEndUsers(ctx: RequestContext, endUserIds: readonly string[]): Promise<TreasuryKycCheck[]> {
    const valid = endUserIds.filter(isUuid);
    if (valid.length === 0) return [];
    return EntityRows.of(ctx, TreasuryKycCheck).select(
      ctx,
      'kyc',
      `WHERE kyc.id IN (SELECT DISTINCT ON (end_user_id) id FROM treasury_kyc_checks
         WHERE end_user_id = ANY($1::uuid[]) AND business_id = $2 AND livemode = $3 ORDER BY end_user_id, created_at DESC, id DESC)`,
      [valid, ctx.requireBusiness(), ctx.livemode],
    );
  }

  /** Checks of the context's partner and mode by id (the GraphQL loader's batch). */
  async byIds(ctx: RequestContext, ids: readonly string[]): Promise<TreasuryKycCheck[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return ctx
      .repo(TreasuryKycCheck)
      .createQueryBuilder('kyc')
      .where('kyc.id IN (:...ids) AND kyc.business_id = :businessId AND kyc.livemode = :livemode', {
        ids: valid,
        businessId: ctx.requireBusiness(),
        livemode: ctx.livemode,
      })
      .getMany();
  }

  /**
   * Decides the end-user's latest check, locked: PENDING → APPROVED / REJECTED (else 409), the
   * end-user's status with it, and treasury.kyc.approved / rejected, in one transaction.
   * `onlyCheckId`: the hosted page decides its own check, not a newer one.
   */
  private async decide(
    ctx: RequestContext,
    endUserId: string,
    action: Exclude<KycAction, 'start'>,
    reasons: string[],
    onlyCheckId: string | null = null,
  ): Promise<TreasuryKycCheck> {
    return inTransaction(ctx, async (tx) => {
      const endUser = await findOwned(tx, TreasuryEndUser, endUserId, 'End-user');
      const check = await tx
        .repo(TreasuryKycCheck)
        .createQueryBuilder('kyc')
        .where('kyc.end_user_id = :endUserId', { endUserId: endUser.id })
        .orderBy('kyc.created_at', 'DESC')
        .addOrderBy('kyc.id', 'DESC')
        .limit(1)
        .setLock('pessimistic_write')
        .getOne();
      if (!check || (onlyCheckId && check.id !== onlyCheckId)) throw notFound('KYC check');
      const previousStatus = check.status;
      check.status = kycTransition(check.status, action);
      check.rejectionReasons = reasons;
      check.decidedAt = new Date();
      const decided = await tx.repo(TreasuryKycCheck).save(check);
      await tx.em.query(`UPDATE treasury_end_users SET status = $2, updated_at = now() WHERE id = $1`, [
        endUser.id,
        END_USER_STATUS_OF_KYC[decided.status],
      ]);
      const event = action === 'approve' ? TreasuryEvent.KYC_APPROVED : TreasuryEvent.KYC_REJECTED;
      await this.events.record(tx, event, treasuryEventData(decided.livemode, kycObject(decided)));
      this.announce(
        tx,
        decided,
        previousStatus,
        action === 'approve' ? ['status', 'decidedAt'] : ['status', 'rejectionReasons', 'decidedAt'],
      );
      return decided;
    });
  }

  private async latestOf(ctx: RequestContext, endUserId: string): Promise<TreasuryKycCheck | null> {
    return ctx.repo(TreasuryKycCheck).findOne({ where: { endUserId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** Publishes one change of the check after commit: its start (previousStatus null) or its decision. */
  private announce(
    tx: RequestContext,
    check: TreasuryKycCheck,
    previousStatus: KycStatus | null,
    changed: string[],
  ): void {
    const change: TreasuryKycChange = {
      businessId: check.businessId,
      livemode: check.livemode,
      endUserId: check.endUserId,
      checkId: check.id,
      previousStatus,
      changed,
    };
    tx.afterCommit(() => this.pubSub.publish(TreasuryTopic.TREASURY_KYC, change));
  }
}
