import { Mode } from '../shared/modes';
import { RequestContext } from '../shared/context';
import { notFound } from '../shared/errors';
import { CheckoutSession } from './checkout-session.entity';

export const EXPIRE_CHECKOUT_SESSION_TASK = 'expire_checkout_session';
export const RECONCILE_CHECKOUT_SESSION_TASK = 'reconcile_checkout_session';

/** How long one submit may hold a session while it charges the card; the expiry job waits as long. */
export const CLAIM_MS = 120_000;

/** The shape of a session token (`cs_test_…` / `cs_live_…`, 32 random bytes). */
const TOKEN = /^cs_(test|live)_[A-Za-z0-9_-]{43}$/;

/** The session behind a hosted page's token (the token is the payer's only capability), or NOT_FOUND. */
export async function sessionByToken(ctx: RequestContext, token: string): Promise<CheckoutSession> {
  const session = TOKEN.test(token) ? await ctx.repo(CheckoutSession).findOne({ where: { token } }) : null;
  if (!session) throw notFound('Checkout session');
  return session;
}

/** The session row locked for update until the transaction ends (every status change is made under it). */
export async function lockSession(tx: RequestContext, sessionId: string): Promise<CheckoutSession> {
  return tx
    .repo(CheckoutSession)
    .createQueryBuilder('session')
    .setLock('pessimistic_write')
    .where('session.id = :id', { id: sessionId })
    .getOneOrFail();
}

/** A submit is charging the card for this session right now: another one must wait, never charge again. */
export const isClaimed = (session: CheckoutSession): boolean =>
  session.claimedUntil !== null && session.claimedUntil.getTime() > Date.now();

/** The hosted page and the jobs act for the session's business and mode, as the system (the payer has no credential). */
export const systemContextFor = (
  ctx: RequestContext,
  session: CheckoutSession,
  actor = 'hosted-checkout',
): RequestContext => ctx.asSystem(actor, session.businessId, session.livemode ? Mode.LIVE : Mode.TEST);
