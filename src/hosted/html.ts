import { CheckoutView } from '../domain/checkout/checkout.service';
import type { CollectionPage, SessionRail } from '../domain/collections/collection.service';
import type { CheckoutFormValues } from './checkout-form';
import { FieldErrors } from '../domain/shared/errors';
import { toMajor } from '../domain/shared/money';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
  *{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1a1f36}
  main{max-width:420px;margin:40px auto;background:#fff;border-radius:10px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:28px}
  h1{font-size:18px;margin:0 0 4px}.amount{font-size:30px;font-weight:600;margin:8px 0 4px}.muted{color:#697386;font-size:14px}
  label{display:block;font-size:14px;font-weight:500;margin:14px 0 4px}input[type=text],input[type=email]{width:100%;padding:10px;border:1px solid #cfd7df;border-radius:6px;font-size:16px}
  .row{display:flex;gap:10px}.row>div{flex:1}.field-error{color:#c0392b;font-size:13px;margin-top:4px}
  .alert{background:#fdecea;color:#8a1c13;border-radius:6px;padding:10px 12px;margin:14px 0}.test{background:#fff4d6;color:#6b4f00;border-radius:6px;padding:8px 12px;font-size:13px;margin-bottom:12px}
  button{width:100%;margin-top:20px;padding:12px;border:0;border-radius:6px;background:#635bff;color:#fff;font-size:16px;font-weight:600;cursor:pointer}
  .check{display:flex;gap:8px;align-items:center;margin-top:14px;font-size:14px}a{color:#635bff}`;

export interface Page {
  status: number;
  html: string;
  /** Origins a form on the page may end up at (the successUrl after a redirect), besides the page's own. */
  formTargets: string[];
  nonce: string;
}

export function layout(title: string, body: string, nonce: string, head = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><title>${escapeHtml(title)}</title>${head}
<style nonce="${nonce}">${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

const money = (view: CheckoutView) => `${toMajor(view.session.amount, view.session.currency)} ${view.session.currency.toUpperCase()}`;

function header(view: CheckoutView): string {
  const { session } = view;
  return `${session.livemode ? '' : '<div class="test">Test mode: no real money moves. Try card 4242 4242 4242 4242, any future expiry, any CVV.</div>'}
<h1>${escapeHtml(view.merchantName)}</h1>
<div class="amount">${escapeHtml(money(view))}</div>
${session.description ? `<div class="muted">${escapeHtml(session.description)}</div>` : ''}`;
}

const fieldError = (errors: FieldErrors, name: string) =>
  (errors[name] ?? []).map((message) => `<div class="field-error" id="${name}-error">${escapeHtml(message)}</div>`).join('');

const invalid = (errors: FieldErrors, name: string) => (errors[name] ? ` aria-invalid="true" aria-describedby="${name}-error"` : '');

/** The card form. The card number and CVV are never written back into the page. */
export function checkoutForm(
  view: CheckoutView, state: { errors: FieldErrors; message: string | null; values: CheckoutFormValues }, nonce: string, rails: SessionRail[] = [],
): string {
  const { session } = view;
  const offersCard = session.paymentMethods.includes('card' as never);
  const { errors, values } = state;
  const interval = session.recurringInterval === 'weekly' ? 'week' : 'month';
  const otherErrors = Object.entries(errors)
    .filter(([name]) => !['number', 'expiryMonth', 'expiryYear', 'cvv', 'email'].includes(name))
    .flatMap(([, messages]) => messages);
  const body = `${header(view)}
${state.message ? `<div class="alert" role="alert">${escapeHtml(state.message)}${otherErrors.map((message) => `<br>${escapeHtml(message)}`).join('')}</div>` : ''}
${offersCard ? `<form method="post" action="/checkout/${escapeHtml(session.token)}" autocomplete="on" novalidate>
${view.askEmail ? `<label for="email">Email</label>
<input type="email" id="email" name="email" autocomplete="email" value="${escapeHtml(values.email ?? '')}"${invalid(errors, 'email')}>${fieldError(errors, 'email')}` : `<p class="muted">Receipt to ${escapeHtml(session.customerEmail)}</p>`}
<label for="number">Card number</label>
<input type="text" id="number" name="number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234"${invalid(errors, 'number')}>${fieldError(errors, 'number')}
<div class="row">
<div><label for="expiryMonth">Month</label><input type="text" id="expiryMonth" name="expiryMonth" inputmode="numeric" autocomplete="cc-exp-month" placeholder="MM" value="${escapeHtml(values.expiryMonth ?? '')}"${invalid(errors, 'expiryMonth')}>${fieldError(errors, 'expiryMonth')}</div>
<div><label for="expiryYear">Year</label><input type="text" id="expiryYear" name="expiryYear" inputmode="numeric" autocomplete="cc-exp-year" placeholder="YYYY" value="${escapeHtml(values.expiryYear ?? '')}"${invalid(errors, 'expiryYear')}>${fieldError(errors, 'expiryYear')}</div>
<div><label for="cvv">CVV</label><input type="text" id="cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" placeholder="123"${invalid(errors, 'cvv')}>${fieldError(errors, 'cvv')}</div>
</div>
${view.offerRecurring ? `<label class="check"><input type="checkbox" id="recurring" name="recurring" value="on"${values.recurring ? ' checked' : ''}> Give this amount every ${interval} (the card is saved; you can ask the merchant to cancel at any time)</label>` : ''}
<button type="submit" id="pay">Pay ${escapeHtml(money(view))}</button>
</form>` : ''}
${localRailForms(session.token, rails, offersCard)}
${session.cancelUrl ? `<p class="muted"><a href="${escapeHtml(session.cancelUrl)}">Cancel and return</a></p>` : ''}`;
  return layout(`Pay ${view.merchantName}`, body, nonce);
}

const RAIL_BUTTONS: Record<string, string> = { bank: 'Pay by bank transfer', momo: 'Pay with mobile money', eft: 'Pay by EFT' };

/** One small form per local rail the session offers (collections); mobile money asks for the phone and network. */
function localRailForms(token: string, rails: SessionRail[], afterCard: boolean): string {
  if (rails.length === 0) return '';
  const forms = rails.map(({ rail, networkIds }) => {
    const momo = rail === 'momo' ? `<label for="momo-phone">Mobile money phone</label>
<input type="text" id="momo-phone" name="phone" inputmode="tel" autocomplete="tel" placeholder="+233241234567">
<label for="momo-network">Network</label>
<select id="momo-network" name="networkId">${networkIds.map((id) => `<option value="${escapeHtml(id)}">${escapeHtml(id)}</option>`).join('')}</select>` : '';
    return `<form method="post" action="/checkout/${escapeHtml(token)}/collection" class="rail">
<input type="hidden" name="rail" value="${escapeHtml(rail)}">${momo}
<button type="submit" id="pay-${escapeHtml(rail)}">${escapeHtml(RAIL_BUTTONS[rail] ?? rail)}</button>
</form>`;
  });
  return `${afterCard ? '<p class="muted">Or pay another way:</p>' : ''}${forms.join('\n')}`;
}

const STATUS_TEXT: Record<string, string> = {
  pending: 'Waiting for your payment.',
  processing: 'Payment received: settling. This page updates on its own.',
  completed: 'Payment received. Thank you.',
  failed: 'This payment failed',
  expired: 'These payment instructions expired before a payment arrived.',
};

/** Tessera's page of a collection (`/collect/<token>`): the instructions, refreshed while payable. */
export function collectionPage(page: Extract<CollectionPage, { kind: 'page' }>, nonce: string): string {
  const { collection, railInstructions: rail } = page;
  const amount = `${toMajor(collection.amount, collection.currency)} ${collection.currency.toUpperCase()}`;
  const status = page.expired ? 'expired' : collection.status;
  const live = status === 'pending' || status === 'processing';
  const row = (id: string, label: string, value: string | null) =>
    (value ? `<p><span class="muted">${escapeHtml(label)}</span><br><strong id="${id}">${escapeHtml(value)}</strong></p>` : '');
  const instructions = !live ? '' : rail.kind === 'momo_prompt'
    ? `<p id="momo-prompt">${escapeHtml(rail.prompt)}</p>`
    : `<p>Transfer exactly <strong>${escapeHtml(amount)}</strong> to:</p>
${row('bank-name', 'Bank', rail.bankName)}${row('account-number', 'Account number', rail.accountNumber)}${row('account-name', 'Account name', rail.accountName)}${row('reference', 'Reference', rail.reference)}`;
  const failure = status === 'failed' ? `: ${escapeHtml(collection.failureReason ?? 'rejected')}` : '';
  const body = `${collection.livemode ? '' : `<div class="test">Test mode: no real money moves. Simulate the payer with POST /api/v1/business/sandbox/collections/${escapeHtml(collection.id)}/pay.</div>`}
<h1>${escapeHtml(page.merchantName)}</h1>
<div class="amount">${escapeHtml(amount)}</div>
<p id="collection-status" data-status="${escapeHtml(status)}" data-collection-id="${escapeHtml(collection.id)}">${escapeHtml(STATUS_TEXT[status] ?? status)}${failure}</p>
${instructions}
${live ? `<p class="muted">Pay before ${escapeHtml(collection.expiresAt.toISOString().replace('T', ' ').slice(0, 16))} UTC.</p>` : ''}`;
  return layout(`Pay ${page.merchantName}`, body, nonce, live ? '<meta http-equiv="refresh" content="2">' : '');
}

/** The sandbox 3-D Secure step: submits itself (or the payer presses the button without JavaScript). */
export function threeDSecurePage(view: CheckoutView, nonce: string): string {
  const body = `${header(view)}
<h1>Confirm with your bank</h1>
<p class="muted">${view.session.livemode ? 'Your bank asks you to confirm this payment.' : 'Sandbox 3-D Secure: the challenge completes automatically.'}</p>
<form method="post" action="/checkout/3ds/${escapeHtml(view.session.token)}" id="three-ds"><button type="submit" id="confirm">Continue</button></form>
<script nonce="${nonce}">setTimeout(function(){document.getElementById('three-ds').submit();},800);</script>`;
  return layout('3-D Secure', body, nonce);
}

export function processingPage(view: CheckoutView, nonce: string): string {
  const url = `/checkout/${escapeHtml(view.session.token)}`;
  return layout('Processing', `${header(view)}<p>Your payment is being processed. This page refreshes on its own.</p><p><a href="${url}">Refresh</a></p>`,
    nonce, `<meta http-equiv="refresh" content="2;url=${url}">`);
}

export function expiredPage(view: CheckoutView, nonce: string): string {
  return layout('Checkout expired', `${header(view)}<div class="alert" role="alert">This checkout is no longer available: it expired or was withdrawn. Ask ${escapeHtml(view.merchantName)} for a new link.</div>`, nonce);
}

export function lockedPage(view: CheckoutView, message: string | null, nonce: string): string {
  const reason = message ? `<p>${escapeHtml(message)}</p>` : '';
  return layout('Checkout locked', `${header(view)}<div class="alert" role="alert">${reason}<p><strong>This checkout is locked</strong> after too many failed payment attempts, to protect cardholders. No further payment can be made on this page. Ask ${escapeHtml(view.merchantName)} for a new link.</p></div>`, nonce);
}

export function receiptPage(view: CheckoutView, nonce: string): string {
  return layout('Payment received', `${header(view)}<p><strong>Payment received.</strong> Thank you. ${view.session.paymentId ? `<span class="muted">Reference ${escapeHtml(view.session.paymentId)}</span>` : ''}</p>`, nonce);
}

export function inactiveLinkPage(merchantName: string, linkName: string, nonce: string): string {
  return layout('Link no longer active', `<h1>${escapeHtml(merchantName)}</h1><p class="muted">${escapeHtml(linkName)}</p><div class="alert" role="alert">This payment link is no longer active. Ask ${escapeHtml(merchantName)} for a new one.</div>`, nonce);
}

export function messagePage(title: string, message: string, nonce: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`, nonce);
}
