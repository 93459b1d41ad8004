import { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import { BusinessSettings } from './business-settings.entity';
import { Mode, Role } from './modes';
import { DomainError, ErrorCode, forbidden, unauthorized } from './errors';

export type Actor =
  | { kind: 'anonymous' }
  | { kind: 'system'; name: string }
  | { kind: 'api'; credentialId: string }
  /** A browser holding a publishable key: it may only create card tokens, every other operation refuses it. */
  | { kind: 'publishable'; credentialId: string }
  | { kind: 'dashboard'; userId: string; role: Role | null }
  /** The platform's operator over GraphQL (a `tessera_op_…` token): no business; only the operator fields accept it. */
  | { kind: 'operator'; tokenId: string; name: string };

/** Where a request came from: its id and the client's address (behind a trusted proxy, the address it forwarded). */
export interface RequestOrigin {
  requestId: string | null;
  clientIp: string | null;
}

/** A connection that can send a statement without waiting for its answer (src/db/pipelining-client.ts). */
interface WriteBehindConnection {
  writeBehind<Row>(sql: string, params: unknown[], onRows?: (rows: Row[]) => void): void;
}

/**
 * What a retry can answer from instead of doing it again: each keyed operation that creates one
 * object names it in the transaction that commits it (issue 26, finding 7; docs/security.md).
 */
export type IdempotentResource =
  'payment' | 'payout' | 'refund' | 'treasury_payout' | 'collection' | 'recipient' | 'sandbox_funding';

/**
 * A request's hold on its `Idempotency-Key` record, as transactions and services use it. Declared
 * here so the kernel names no area; the idempotency area implements it (IdempotencyClaim).
 */
export interface IdempotencyHold {
  /** Entered first by each transaction of the request; fails when a retry took the key over. */
  enter(tx: RequestContext): Promise<void>;
  /** The id of the `type` an earlier run of this request made, if any. */
  resourceOf(type: IdempotentResource): string | null;
  /** Records, in the transaction that made it, what this request made. */
  recordResource(tx: RequestContext, type: IdempotentResource, id: string): Promise<void>;
}

const NO_ORIGIN: RequestOrigin = { requestId: null, clientIp: null };

/**
 * What every service method takes first: who acts, for which business and mode, and the
 * entity manager of the current transaction (when one is open).
 */
export class RequestContext {
  private readonly afterCommitHooks: Array<() => void | Promise<void>> = [];

  constructor(
    readonly dataSource: DataSource,
    readonly actor: Actor,
    readonly businessId: string | null,
    readonly mode: Mode,
    readonly origin: RequestOrigin = NO_ORIGIN,
    private readonly manager: EntityManager | null = null,
    private readonly parent: RequestContext | null = null,
    /** The request's hold on its Idempotency-Key, entered by each of its transactions (see IdempotencyHold). */
    readonly idempotency: IdempotencyHold | null = null,
    /** The settings of the business and mode, read with the API key that authenticated the request (see `settingsAsAuthenticated`). */
    private readonly authenticatedSettings: BusinessSettings | null = null,
  ) {}

  /**
   * The business's settings of this context's mode as read in the statement that authenticated
   * the request's API key (the same read a service would make next, without its round trip);
   * null when the context was not authenticated so, or now acts for another business or mode.
   */
  get settingsAsAuthenticated(): BusinessSettings | null {
    const settings = this.authenticatedSettings;
    return settings && settings.businessId === this.businessId && settings.livemode === this.livemode ? settings : null;
  }

  static system(dataSource: DataSource, name: string, businessId: string | null = null, mode = Mode.TEST) {
    return new RequestContext(dataSource, { kind: 'system', name }, businessId, mode);
  }

  get requestId(): string | null {
    return this.origin.requestId;
  }

  /** The caller's address as the HTTP layer resolved it (TRUST_PROXY decides whether forwarded headers count); null outside a request. */
  get clientIp(): string | null {
    return this.origin.clientIp;
  }

  get em(): EntityManager {
    return this.manager ?? this.dataSource.manager;
  }

  get inTransaction(): boolean {
    return this.manager !== null;
  }

  get livemode(): boolean {
    return this.mode === Mode.LIVE;
  }

  /**
   * Sends a statement of this transaction without waiting for its answer: it is written at once
   * (so after every statement awaited before it), runs in order on the server, and the
   * transaction's next statement or its COMMIT answers only after it has, failing with its error if
   * it failed, so the transaction rolls back as if it had been awaited. For writes whose result
   * nothing in the transaction needs back (an event row, a journal posting); `onRows` gets the
   * rows before the next statement answers. The connection is src/db/pipelining-client.ts.
   */
  writeBehind<Row>(sql: string, params: unknown[], onRows?: (rows: Row[]) => void): void {
    const connection = (
      this.manager?.queryRunner as { databaseConnection?: Partial<WriteBehindConnection> } | undefined
    )?.databaseConnection;
    if (!connection?.writeBehind) throw new Error('writeBehind needs a transaction on a pipelining connection');
    connection.writeBehind(sql, params, onRows);
  }

  repo<T extends ObjectLiteral>(entity: EntityTarget<T>): Repository<T> {
    return this.em.getRepository(entity);
  }

  /** The same actor acting for another business (used right after sign-up and by operators). */
  forBusiness(businessId: string, mode = this.mode, role: Role | null = null): RequestContext {
    const actor: Actor = this.actor.kind === 'dashboard' ? { ...this.actor, role } : this.actor;
    return new RequestContext(
      this.dataSource,
      actor,
      businessId,
      mode,
      this.origin,
      this.manager,
      this.parent,
      this.idempotency,
      this.authenticatedSettings,
    );
  }

  /**
   * The system acting for a business on this request's behalf (a hosted page, a sandbox helper):
   * it keeps the request id and the request's Idempotency-Key claim.
   */
  asSystem(name: string, businessId: string, mode: Mode): RequestContext {
    return new RequestContext(
      this.dataSource,
      { kind: 'system', name },
      businessId,
      mode,
      this.origin,
      null,
      null,
      this.idempotency,
    );
  }

  withManager(manager: EntityManager): RequestContext {
    return new RequestContext(
      this.dataSource,
      this.actor,
      this.businessId,
      this.mode,
      this.origin,
      manager,
      this,
      this.idempotency,
      this.authenticatedSettings,
    );
  }

  /** The same actor, business and mode once the transaction is over (after-commit work reads outside it). */
  withoutTransaction(): RequestContext {
    return new RequestContext(
      this.dataSource,
      this.actor,
      this.businessId,
      this.mode,
      this.origin,
      null,
      null,
      this.idempotency,
      this.authenticatedSettings,
    );
  }

  /** The same context holding the request's Idempotency-Key claim. */
  withIdempotency(claim: IdempotencyHold): RequestContext {
    return new RequestContext(
      this.dataSource,
      this.actor,
      this.businessId,
      this.mode,
      this.origin,
      this.manager,
      this.parent,
      claim,
      this.authenticatedSettings,
    );
  }

  /** Runs after the outermost transaction commits; never when it rolls back. */
  afterCommit(hook: () => void | Promise<void>): void {
    if (this.parent) this.parent.afterCommit(hook);
    else this.afterCommitHooks.push(hook);
  }

  async runAfterCommitHooks(): Promise<void> {
    const hooks = this.afterCommitHooks.splice(0);
    for (const hook of hooks) await hook();
  }

  requireBusiness(): string {
    if (this.businessId) return this.businessId;
    if (this.actor.kind === 'dashboard') {
      throw new DomainError(
        ErrorCode.BAD_REQUEST,
        'Select a business with the X-Service-Business-Id header (you belong to none)',
      );
    }
    throw unauthorized('This operation needs a business: authenticate with an API credential');
  }

  requireSandbox(): void {
    if (this.livemode) {
      throw new DomainError(ErrorCode.SANDBOX_ONLY, 'This operation is available with test credentials only');
    }
  }

  /**
   * Team, ownership and live-credential management: a signed-in dashboard user with one of the
   * roles. API credentials are refused, so a leaked key cannot grant itself a team or live keys.
   */
  requireDashboardRole(...roles: Role[]): void {
    this.requireBusiness();
    if (this.actor.kind === 'dashboard' && this.actor.role && roles.includes(this.actor.role)) return;
    if (this.actor.kind === 'system') return;
    throw forbidden(
      this.actor.kind === 'api'
        ? 'This operation needs a dashboard sign-in; API credentials cannot perform it'
        : `This needs one of the roles ${roles.join(', ')}`,
    );
  }

  /** Operator commands (the CLI): the system actor only, never a credential or a dashboard user. */
  requireOperator(): void {
    if (this.actor.kind !== 'system') throw forbidden('This is an operator command');
  }

  /** What the platform's operator reads: the CLI (system), or an operator token over GraphQL. */
  requirePlatformOperator(): void {
    if (this.actor.kind !== 'system' && this.actor.kind !== 'operator')
      throw forbidden("This is the platform operator's: it needs an operator token (tessera_op_…)");
  }

  /** Dashboard users need one of the given roles; API credentials act with full rights on their own business and mode. */
  requireRole(...roles: Role[]): void {
    this.requireBusiness();
    if (this.actor.kind === 'api' || this.actor.kind === 'system') return;
    if (this.actor.kind === 'dashboard' && this.actor.role && roles.includes(this.actor.role)) return;
    throw forbidden(`This needs one of the roles ${roles.join(', ')}`);
  }
}

export const WRITE_ROLES = [Role.OWNER, Role.ADMIN, Role.DEVELOPER];
export const ADMIN_ROLES = [Role.OWNER, Role.ADMIN];
export const ALL_ROLES = [Role.OWNER, Role.ADMIN, Role.DEVELOPER, Role.VIEWER];

/**
 * The one transaction helper: runs `work` in a database transaction (joining the current one
 * when the context already has it), then runs the after-commit hooks of the outermost one. A
 * request with an Idempotency-Key enters its claim first, in the same transaction, so what the
 * transaction commits is tied to the key (see IdempotencyHold).
 */
export async function inTransaction<T>(ctx: RequestContext, work: (tx: RequestContext) => Promise<T>): Promise<T> {
  if (ctx.inTransaction) return work(ctx);
  const root = ctx.withoutTransaction();
  const result = await ctx.dataSource.transaction(async (manager) => {
    const tx = root.withManager(manager);
    await tx.idempotency?.enter(tx);
    return work(tx);
  });
  await root.runAfterCommitHooks();
  return result;
}
