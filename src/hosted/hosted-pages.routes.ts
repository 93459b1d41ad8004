import crypto from 'node:crypto';
import formbody from '@fastify/formbody';
import { FastifyInstance, FastifyReply } from 'fastify';
import { CORRECT_THE_FIELDS, CheckoutOutcome, CheckoutRefusal } from '../domain/checkout';
import { authenticationReturnPathOf } from '../domain/payments';
import type { SessionRail } from '../domain/collections';
import { Core } from '../domain/core';
import { limitRequests } from '../http/rate-limit';
import { originOf } from '../http/request-context';
import { statusOf } from '../http/status';
import { outageErrorOf, retryLater } from '../http/outage';
import { capabilityRoute } from '../http/capabilities';
import { ErrorCode, isDomainError } from '../domain/shared/errors';
import { isApiError } from '../http/error-codes';
import { CheckoutFormValues, readCheckoutForm } from './checkout-form';
import { collectionFormValues, payerCollectionErrors, readCollectionForm } from './collection-form';
import { kycPage, kycPageErrors, readKycDecision } from './kyc-page';
import {
  checkoutForm,
  collectionPage,
  expiredPage,
  inactiveLinkPage,
  lockedPage,
  messagePage,
  processingPage,
  receiptPage,
  threeDSecurePage,
} from './html';

type ByToken = { Params: { token: string } };

/**
 * Security of the hosted pages. There are no cookies and no sessions: the unguessable token in the
 * URL is the payer's whole capability, so a cross-site form post can only do what the holder of
 * the link could do anyway (pay the merchant with the poster's own card), which is why no CSRF
 * token is needed. Every page is `no-store` (nothing cached with the token), never framed
 * (`X-Frame-Options: DENY`, `frame-ancestors 'none'`: no clickjacking), sends no Referer (the token
 * must not leak to the merchant's success page) and has a strict CSP: nothing but its own
 * nonce-tagged style and script, requests only to itself (the collection page asks for its own
 * status), forms only to itself and to the success URL's origin (browsers check form-action on the
 * redirect after a POST). Pages link to each other by path, so they work under any host name.
 */
function send(reply: FastifyReply, status: number, html: string, nonce: string, formTargets: string[] = []) {
  const formAction = ["'self'", ...new Set(formTargets)].join(' ');
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .send(html);
}

const urlOriginOf = (url: string | null): string[] => {
  if (!url) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
};

/** What a payer back from 3-D Secure on a payment of no hosted page reads, by the payment's status. */
const PAYMENT_OUTCOMES: Partial<Record<string, [number, string, string]>> & { PENDING: [number, string, string] } = {
  COMPLETED: [200, 'Payment confirmed', 'Your payment is confirmed. You can close this window.'],
  SETTLED: [200, 'Payment confirmed', 'Your payment is confirmed. You can close this window.'],
  REFUNDED: [200, 'Payment confirmed', 'Your payment was confirmed, then refunded. You can close this window.'],
  FAILED: [402, 'Payment not made', 'Your bank or card did not confirm this payment: nothing was charged.'],
  PENDING: [202, 'Payment in progress', 'Your payment is being processed. You can close this window.'],
};

/** The status of the payment form shown again: the fields to correct 400, a declined card 402, a payment not made 422. */
const FORM_STATUS: Record<CheckoutRefusal, number> = { invalid_fields: 400, declined: 402, not_made: 422 };

function render(
  reply: FastifyReply,
  outcome: CheckoutOutcome,
  values: CheckoutFormValues = {},
  rails: SessionRail[] = [],
) {
  const nonce = crypto.randomBytes(16).toString('base64');
  if (outcome.kind === 'redirect') {
    return reply
      .status(303)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('location', outcome.url)
      .send();
  }
  const targets = urlOriginOf(outcome.view.session.successUrl);
  switch (outcome.kind) {
    case 'form':
      return send(
        reply,
        outcome.refusal ? FORM_STATUS[outcome.refusal] : 200,
        checkoutForm(outcome.view, { ...outcome, values }, nonce, rails),
        nonce,
        targets,
      );
    case 'three_ds':
      return send(reply, 200, threeDSecurePage(outcome.view, nonce, outcome.authenticationUrl), nonce, targets);
    case 'processing':
      return send(reply, 409, processingPage(outcome.view, nonce), nonce);
    case 'expired':
      return send(reply, 410, expiredPage(outcome.view, nonce), nonce);
    case 'locked':
      return send(reply, 423, lockedPage(outcome.view, outcome.message, nonce), nonce);
    case 'receipt':
      return send(reply, 200, receiptPage(outcome.view, outcome.payment, nonce), nonce);
  }
}

/**
 * The hosted payment page behind checkoutUrl (/checkout/<token>), its 3-D Secure step and receipt,
 * and the public URL of payment links (/pay/<token>). Plain server-rendered HTML, no credential:
 * the token resolves the session. Forms post application/x-www-form-urlencoded, parsed only here.
 */
export async function hostedPageRoutes(app: FastifyInstance, core: Core) {
  await app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: 16 * 1024 });
    // Payers carry no credential: the surface spends the budget of the client's address.
    limitRequests(scope);

    scope.setErrorHandler((error, request, reply) => {
      const nonce = crypto.randomBytes(16).toString('base64');
      if (isApiError(error) && error.code === ErrorCode.NOT_FOUND) {
        const what = request.url.startsWith('/kyc/') ? 'verification' : 'payment';
        return send(
          reply,
          404,
          messagePage('Not found', `This ${what} page does not exist. Check the link you were given.`, nonce),
          nonce,
        );
      }
      const status = isApiError(error) ? statusOf(error) : (error as { statusCode?: number }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        return send(reply, status, messagePage('Request refused', 'The request could not be processed.', nonce), nonce);
      }
      // A database outage is logged by the outage watch, once, not here per request.
      const outage = outageErrorOf(request.server.databaseOutage, error);
      if (!outage) request.log.error({ err: error }, 'hosted page error');
      if (outage || status === 503) {
        retryLater(reply);
        return send(
          reply,
          503,
          messagePage('Try again in a moment', 'This page is unavailable for a moment; reload it shortly.', nonce),
          nonce,
        );
      }
      return send(
        reply,
        500,
        messagePage(
          'Something went wrong',
          'The payment page failed. No card was charged twice; try again in a moment.',
          nonce,
        ),
        nonce,
      );
    });

    /** The page's outcome with the local rails its session offers (collections), for the form. */
    const withRails = (outcome: CheckoutOutcome): SessionRail[] =>
      'view' in outcome ? core.collections.sessionRails(outcome.view.session) : [];

    scope.get<ByToken>(capabilityRoute('/checkout'), async (request, reply) => {
      const outcome = await core.checkout.hosted.showPage(
        core.anonymousContext(originOf(request)),
        request.params.token,
      );
      return render(reply, outcome, {}, withRails(outcome));
    });

    scope.post<ByToken>(capabilityRoute('/checkout'), async (request, reply) => {
      const { command, values } = readCheckoutForm(request.params.token, request.body);
      const outcome = await core.checkout.hosted.pay(core.anonymousContext(originOf(request)), command);
      return render(reply, outcome, values, withRails(outcome));
    });

    /** The payer chose a local rail: the session's collection on it is opened (or found) and its instructions page shown. */
    scope.post<ByToken>(capabilityRoute('/checkout', '/collection'), async (request, reply) => {
      const ctx = core.anonymousContext(originOf(request));
      try {
        const { collection } = await core.collections.startFromSession(
          ctx,
          readCollectionForm(request.params.token, request.body),
        );
        return reply
          .status(303)
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .header('location', `/collect/${collection.hostedToken}`)
          .send();
      } catch (error) {
        if (!isApiError(error) || error.code !== ErrorCode.VALIDATION_ERROR) throw error;
        const outcome = await core.checkout.hosted.showPage(ctx, request.params.token);
        const refused: CheckoutOutcome =
          outcome.kind === 'form'
            ? {
                ...outcome,
                refusal: 'invalid_fields',
                errors: payerCollectionErrors(error.fieldErrors ?? {}),
                message: CORRECT_THE_FIELDS,
              }
            : outcome;
        return render(reply, refused, collectionFormValues(request.body), withRails(refused));
      }
    });

    /** Tessera's page of a collection (`hosted_page` instructions, and collections started on a checkout page). */
    scope.get<ByToken>(capabilityRoute('/collect'), async (request, reply) => {
      const page = await core.collections.hostedPage(core.anonymousContext(originOf(request)), request.params.token);
      if (page.kind === 'redirect')
        return reply
          .status(303)
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .header('location', page.url)
          .send();
      const nonce = crypto.randomBytes(16).toString('base64');
      return send(reply, 200, collectionPage(page, nonce), nonce);
    });

    /** The sandbox's hosted KYC page behind a check's kycLinkUrl: shows the check; the tester approves or rejects it. */
    scope.get<ByToken>(capabilityRoute('/kyc'), async (request, reply) => {
      const nonce = crypto.randomBytes(16).toString('base64');
      return send(
        reply,
        200,
        kycPage(
          await core.treasuryKyc.hostedPage(core.anonymousContext(originOf(request)), request.params.token),
          nonce,
        ),
        nonce,
      );
    });

    for (const decision of ['approve', 'reject'] as const) {
      scope.post<ByToken>(capabilityRoute('/kyc', `/${decision}`), async (request, reply) => {
        const ctx = core.anonymousContext(originOf(request));
        const nonce = crypto.randomBytes(16).toString('base64');
        try {
          const page = await core.treasuryKyc.decideOnPage(
            ctx,
            readKycDecision(request.params.token, decision, request.body),
          );
          return send(reply, 200, kycPage(page, nonce), nonce);
        } catch (error) {
          if (!isDomainError(error) || (error.code !== ErrorCode.VALIDATION_ERROR && error.code !== ErrorCode.CONFLICT))
            throw error;
          const page = await core.treasuryKyc.hostedPage(ctx, request.params.token);
          return send(reply, statusOf(error), kycPage(page, nonce, kycPageErrors(error)), nonce);
        }
      });
    }

    scope.get<ByToken>(capabilityRoute('/checkout/3ds'), async (request, reply) =>
      render(
        reply,
        await core.checkout.hosted.showThreeDSecure(core.anonymousContext(originOf(request)), request.params.token),
      ),
    );

    scope.post<ByToken>(capabilityRoute('/checkout/3ds'), async (request, reply) =>
      render(
        reply,
        await core.checkout.hosted.completeThreeDSecure(core.anonymousContext(originOf(request)), request.params.token),
      ),
    );

    /**
     * The payer back from the acquirer's 3-D Secure page (its return_url, on PUBLIC_BASE_URL): the
     * path names the payment; Stripe's `payment_intent` query parameter is only checked against it.
     */
    scope.get<{ Params: { paymentId: string }; Querystring: Record<string, string | string[] | undefined> }>(
      authenticationReturnPathOf(':paymentId'),
      async (request, reply) => {
        const reference = request.query.payment_intent;
        const outcome = await core.checkout.hosted.returnFromAuthentication(core.anonymousContext(originOf(request)), {
          paymentId: request.params.paymentId,
          reference: typeof reference === 'string' ? reference : null,
        });
        if (outcome.kind !== 'payment') return render(reply, outcome);
        const nonce = crypto.randomBytes(16).toString('base64');
        const [status, title, message] = PAYMENT_OUTCOMES[outcome.payment.status] ?? PAYMENT_OUTCOMES.PENDING;
        return send(reply, status, messagePage(title, message, nonce), nonce);
      },
    );

    scope.get<ByToken>(capabilityRoute('/checkout', '/complete'), async (request, reply) =>
      render(
        reply,
        await core.checkout.hosted.showReceipt(core.anonymousContext(originOf(request)), request.params.token),
      ),
    );

    scope.get<ByToken>(capabilityRoute('/pay'), async (request, reply) => {
      const visit = await core.paymentLinks.visit(core.anonymousContext(originOf(request)), request.params.token);
      if (visit.kind === 'session')
        return reply.status(303).header('cache-control', 'no-store').header('location', visit.checkoutPath).send();
      const nonce = crypto.randomBytes(16).toString('base64');
      return send(reply, 410, inactiveLinkPage(visit.merchantName, visit.link.name, nonce), nonce);
    });
  });
}
