import { CheckoutView } from '../domain/checkout';
import type { CollectionPage, SessionRail } from '../domain/collections';
import { CollectionRailKind, CollectionStatus } from '../domain/collections';
import type { Payment } from '../domain/payments';
import { paymentReferenceOf } from '../domain/payments';
import type { CheckoutFormValues } from './checkout-form';
import { FieldErrors } from '../domain/shared/errors';
import { toMajor } from '../domain/shared/money';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: string | number | null | undefined): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

// Colours meet WCAG AA contrast on their backgrounds (the browser tests run axe-core on every page).
const STYLE = `
  *{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1a1f36}
  main{max-width:420px;margin:40px auto;background:#fff;border-radius:10px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:28px}
  h1{font-size:18px;margin:0 0 4px}h2{font-size:17px;margin:20px 0 4px}.amount{font-size:30px;font-weight:600;margin:8px 0 4px}.muted{color:#5c6679;font-size:14px}
  label{display:block;font-size:14px;font-weight:500;margin:14px 0 4px}
  input[type=text],input[type=email],select,textarea{display:block;width:100%;padding:10px;border:1px solid #8792a2;border-radius:6px;font:inherit;background:#fff;color:#1a1f36}
  select{appearance:none;-webkit-appearance:none;padding-right:36px;cursor:pointer}
  .select{position:relative}.select::after{content:"";position:absolute;right:16px;top:50%;width:8px;height:8px;border-right:2px solid #4f566b;border-bottom:2px solid #4f566b;transform:translateY(-75%) rotate(45deg);pointer-events:none}
  input:focus,select:focus,textarea:focus,button:focus-visible,a:focus-visible{outline:3px solid #a5a0ff;outline-offset:1px}
  [aria-invalid=true]{border-color:#b42318!important;box-shadow:0 0 0 1px #b42318;background:#fff8f7}
  .row{display:flex;gap:10px}.row>div{flex:1}.field-error{color:#b42318;font-size:13px;margin-top:4px}
  .alert{background:#fdecea;color:#8a1c13;border-radius:6px;padding:10px 12px;margin:14px 0}.test{background:#fff4d6;color:#6b4f00;border-radius:6px;padding:8px 12px;font-size:13px;margin-bottom:12px}
  .badge{display:inline-block;background:#fff4d6;color:#6b4f00;border-radius:4px;padding:1px 8px;font-size:12px;font-weight:600;margin-bottom:10px}
  button{width:100%;margin-top:20px;padding:12px;border:0;border-radius:6px;background:#5851e8;color:#fff;font-size:16px;font-weight:600;cursor:pointer}
  button.danger{background:#fff;color:#b42318;border:2px solid #b42318}.danger-zone{border-top:1px solid #e3e8ee;margin-top:24px;padding-top:4px}
  .paid{font-size:18px;font-weight:600;color:#146c43;margin:12px 0}
  dl.facts{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:16px 0}dl.facts dt{color:#5c6679;font-size:14px}dl.facts dd{margin:0;font-weight:500}
  .check{display:flex;gap:8px;align-items:center;margin-top:14px;font-size:14px}a{color:#4f46e5}`;

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

const amountOf = (minor: bigint, currency: string) => `${toMajor(minor, currency)} ${currency.toUpperCase()}`;
const money = (view: CheckoutView) => amountOf(view.session.amount, view.session.currency);

/** A small marker that the page is in test mode (no card hints: those belong on the card form only). */
const testMarker = (livemode: boolean) => (livemode ? '' : '<div class="badge">Test mode</div>');

/** The top of every checkout page; `hints` adds the sandbox cards to try (the card form only). */
function header(view: CheckoutView, hints = false): string {
  const { session } = view;
  const test = session.livemode
    ? ''
    : hints
      ? '<div class="test">Test mode: no real money moves. Try card 4242 4242 4242 4242, any future expiry, any CVV.</div>'
      : testMarker(false);
  return `${test}
<h1>${escapeHtml(view.merchantName)}</h1>
<div class="amount">${escapeHtml(money(view))}</div>
${session.description ? `<div class="muted">${escapeHtml(session.description)}</div>` : ''}`;
}

/**
 * Where the refused fields of a form stand: their messages, and the one field focused when the page
 * opens (the first refused one in the page's order), so a payer (and a screen reader) lands on it.
 */
export interface FieldState {
  errors: FieldErrors;
  focus: string | null;
}

export const fieldState = (errors: FieldErrors, order: readonly string[]): FieldState => ({
  errors,
  focus: order.find((name) => (errors[name] ?? []).length > 0) ?? null,
});

/**
 * The attributes and message of a field named `name` with element id `id`: when refused,
 * aria-invalid (styled), its message beside it linked by aria-describedby, and autofocus if first.
 */
export function fieldStatus(state: FieldState, name: string, id: string): { attrs: string; message: string } {
  const messages = state.errors[name] ?? [];
  if (messages.length === 0) return { attrs: '', message: '' };
  return {
    attrs: ` aria-invalid="true" aria-describedby="${id}-error"${state.focus === name ? ' autofocus' : ''}`,
    message: `<div class="field-error" id="${id}-error">${messages.map(escapeHtml).join(' ')}</div>`,
  };
}

/** A labelled text input with its error state. */
function textField(
  state: FieldState,
  spec: { id: string; name: string; label: string; attrs: string; value?: string },
): string {
  const { attrs, message } = fieldStatus(state, spec.name, spec.id);
  const value = spec.value ? ` value="${escapeHtml(spec.value)}"` : '';
  return `<label for="${spec.id}">${escapeHtml(spec.label)}</label>
<input id="${spec.id}" name="${spec.name}" ${spec.attrs}${value}${attrs}>${message}`;
}

/** The summary at the top of a refused form, with the messages that belong to no field. */
function formAlert(message: string | null, others: string[]): string {
  if (!message && others.length === 0) return '';
  const lines = [...(message ? [message] : []), ...others];
  return `<div class="alert" role="alert">${lines.map(escapeHtml).join('<br>')}</div>`;
}

const CARD_FIELDS = ['email', 'number', 'expiryMonth', 'expiryYear', 'cvv'] as const;
const RAIL_FIELDS = ['phone', 'networkId'] as const;

/** The card form. The card number and CVV are never written back into the page. */
export function checkoutForm(
  view: CheckoutView,
  state: { errors: FieldErrors; message: string | null; values: CheckoutFormValues },
  nonce: string,
  rails: SessionRail[] = [],
): string {
  const { session } = view;
  const offersCard = session.paymentMethods.includes('card' as never);
  const { values } = state;
  const fields = fieldState(state.errors, [...CARD_FIELDS, ...RAIL_FIELDS]);
  const interval = session.recurringInterval === 'weekly' ? 'week' : 'month';
  const known = new Set<string>([...CARD_FIELDS, ...RAIL_FIELDS]);
  const otherErrors = Object.entries(state.errors)
    .filter(([name]) => !known.has(name))
    .flatMap(([, messages]) => messages);
  const card = (id: string, label: string, attrs: string, value?: string) =>
    textField(fields, { id, name: id, label, attrs, value });
  const body = `${header(view, offersCard)}
${formAlert(state.message, otherErrors)}
${
  offersCard
    ? `<form method="post" action="/checkout/${escapeHtml(session.token)}" autocomplete="on" novalidate>
${
  view.askEmail
    ? textField(fields, {
        id: 'email',
        name: 'email',
        label: 'Email',
        attrs: 'type="email" autocomplete="email"',
        value: values.email,
      })
    : `<p class="muted">Receipt to ${escapeHtml(session.customerEmail)}</p>`
}
${card('number', 'Card number', 'type="text" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234"')}
<div class="row">
<div>${card('expiryMonth', 'Month', 'type="text" inputmode="numeric" autocomplete="cc-exp-month" placeholder="MM"', values.expiryMonth)}</div>
<div>${card('expiryYear', 'Year', 'type="text" inputmode="numeric" autocomplete="cc-exp-year" placeholder="YYYY"', values.expiryYear)}</div>
<div>${card('cvv', 'CVV', 'type="text" inputmode="numeric" autocomplete="cc-csc" placeholder="123"')}</div>
</div>
${view.offerRecurring ? `<label class="check"><input type="checkbox" id="recurring" name="recurring" value="on"${values.recurring ? ' checked' : ''}> Give this amount every ${interval} (the card is saved; you can ask the merchant to cancel at any time)</label>` : ''}
<button type="submit" id="pay">Pay ${escapeHtml(money(view))}</button>
</form>`
    : ''
}
${localRailForms(session.token, rails, offersCard, fields, values)}
${session.cancelUrl ? `<p class="muted"><a href="${escapeHtml(session.cancelUrl)}">Cancel and return</a></p>` : ''}`;
  return layout(`Pay ${view.merchantName}`, body, nonce);
}

const RAIL_BUTTONS: Record<string, string> = {
  bank: 'Pay by bank transfer',
  momo: 'Pay with mobile money',
  eft: 'Pay by EFT',
};

/** One small form per local rail the session offers (collections); mobile money asks for the phone and the network (by its name). */
function localRailForms(
  token: string,
  rails: SessionRail[],
  afterCard: boolean,
  fields: FieldState,
  values: CheckoutFormValues,
): string {
  if (rails.length === 0) return '';
  const forms = rails.map(({ rail, networks }) => {
    let momo = '';
    if (rail === CollectionRailKind.MOMO) {
      const network = fieldStatus(fields, 'networkId', 'momo-network');
      const options = networks
        .map(
          ({ id, name }) =>
            `<option value="${escapeHtml(id)}"${values.networkId === id ? ' selected' : ''}>${escapeHtml(name)}</option>`,
        )
        .join('');
      momo = `${textField(fields, { id: 'momo-phone', name: 'phone', label: 'Mobile money phone number', attrs: 'type="text" inputmode="tel" autocomplete="tel" placeholder="+233 24 123 4567"', value: values.phone })}
<label for="momo-network">Mobile network</label>
<div class="select"><select id="momo-network" name="networkId"${network.attrs}>${options}</select></div>${network.message}`;
    }
    return `<form method="post" action="/checkout/${escapeHtml(token)}/collection" class="rail" novalidate>
<input type="hidden" name="rail" value="${escapeHtml(rail)}">${momo}
<button type="submit" id="pay-${escapeHtml(rail)}">${escapeHtml(RAIL_BUTTONS[rail] ?? rail)}</button>
</form>`;
  });
  return `${afterCard ? '<h2>Or pay another way</h2>' : ''}${forms.join('\n')}`;
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
  const amount = amountOf(collection.amount, collection.currency);
  const status = page.expired ? 'expired' : collection.status;
  const live = status === CollectionStatus.PENDING || status === CollectionStatus.PROCESSING;
  const row = (id: string, label: string, value: string | null) =>
    value ? `<dt>${escapeHtml(label)}</dt><dd id="${id}">${escapeHtml(value)}</dd>` : '';
  const instructions = !live
    ? ''
    : rail.kind === 'momo_prompt'
      ? `<p id="momo-prompt">${escapeHtml(rail.prompt)}</p>`
      : `<p>Transfer exactly <strong>${escapeHtml(amount)}</strong> to:</p>
<dl class="facts">${row('bank-name', 'Bank', rail.bankName)}${row('account-number', 'Account number', rail.accountNumber)}${row('account-name', 'Account name', rail.accountName)}${row('reference', 'Reference', rail.reference)}</dl>`;
  const failure = status === CollectionStatus.FAILED ? `: ${escapeHtml(collection.failureReason ?? 'rejected')}` : '';
  const test = collection.livemode
    ? ''
    : live
      ? `<div class="test">Test mode: no real money moves. Simulate the payer with POST /api/v1/business/sandbox/collections/${escapeHtml(collection.id)}/pay.</div>`
      : testMarker(false);
  const body = `${test}
<h1>${escapeHtml(page.merchantName)}</h1>
<div class="amount">${escapeHtml(amount)}</div>
<p id="collection-status" role="status" data-status="${escapeHtml(status)}" data-collection-id="${escapeHtml(collection.id)}">${escapeHtml(STATUS_TEXT[status] ?? status)}${failure}</p>
${instructions}
${
  live
    ? `<p class="muted">Pay before ${escapeHtml(collection.expiresAt.toISOString().replace('T', ' ').slice(0, 16))} UTC.</p>
<noscript><p><a href="">Refresh</a> to see whether your payment arrived.</p></noscript>
<script nonce="${nonce}">${RELOAD_ON_CHANGE}</script>`
    : ''
}`;
  return layout(`Pay ${page.merchantName}`, body, nonce);
}

/**
 * The collection page follows its collection without a timed refresh (a meta refresh every few
 * seconds moves a screen reader back to the top and fails WCAG 2.2.1): it asks for the page again
 * in the background and reloads only once the status changed (or the page now redirects: paid).
 */
const RELOAD_ON_CHANGE = `(function(){var shown=document.getElementById('collection-status').getAttribute('data-status');
function poll(){fetch(location.href,{redirect:'manual',cache:'no-store'}).then(function(r){
if(r.type==='opaqueredirect'){location.reload();return;}
return r.text().then(function(t){var m=/data-status="([^"]+)"/.exec(t);if(m&&m[1]!==shown)location.reload();else setTimeout(poll,2000);});
}).catch(function(){setTimeout(poll,5000);});}
setTimeout(poll,2000);})();`;

/** The sandbox 3-D Secure step: submits itself (or the payer presses the button without JavaScript). */
/**
 * The 3-D Secure step. With the acquirer's page (live, Stripe), a link to it that the page follows
 * by itself: a page of Tessera's own origin first, since a redirect of the card form's POST to
 * another origin is refused by the form page's CSP form-action. Otherwise the sandbox's challenge.
 */
export function threeDSecurePage(view: CheckoutView, nonce: string, authenticationUrl: string | null = null): string {
  if (authenticationUrl) {
    return layout(
      '3-D Secure',
      `${header(view)}
<h2>Confirm with your bank</h2>
<p class="muted">Your bank asks you to confirm this payment on its own page; you come back here afterwards.</p>
<p><a href="${escapeHtml(authenticationUrl)}" id="authenticate">Continue to your bank</a></p>
<script nonce="${nonce}">setTimeout(function(){location.assign(document.getElementById('authenticate').href);},800);</script>`,
      nonce,
    );
  }
  const body = `${header(view)}
<h2>Confirm with your bank</h2>
<p class="muted">${view.session.livemode ? 'Your bank asks you to confirm this payment.' : 'Sandbox 3-D Secure: the challenge completes automatically.'}</p>
<form method="post" action="/checkout/3ds/${escapeHtml(view.session.token)}" id="three-ds"><button type="submit" id="confirm">Continue</button></form>
<script nonce="${nonce}">setTimeout(function(){document.getElementById('three-ds').submit();},800);</script>`;
  return layout('3-D Secure', body, nonce);
}

/** Another submit of the session is being charged: the page goes back to the session's page (the outcome) after a moment. */
export function processingPage(view: CheckoutView, nonce: string): string {
  const url = `/checkout/${escapeHtml(view.session.token)}`;
  return layout(
    'Processing',
    `${header(view)}<p role="status">Your payment is being processed. This page shows the outcome in a moment.</p><p><a href="${url}" id="outcome">See the outcome</a></p>
<script nonce="${nonce}">setTimeout(function(){location.replace(document.getElementById('outcome').href);},2000);</script>`,
    nonce,
  );
}

export function expiredPage(view: CheckoutView, nonce: string): string {
  return layout(
    'Checkout expired',
    `${header(view)}<div class="alert" role="alert">This checkout is no longer available: it expired or was withdrawn. Ask ${escapeHtml(view.merchantName)} for a new link.</div>`,
    nonce,
  );
}

export function lockedPage(view: CheckoutView, message: string | null, nonce: string): string {
  const reason = message ? `<p>${escapeHtml(message)}</p>` : '';
  return layout(
    'Checkout locked',
    `${header(view)}<div class="alert" role="alert">${reason}<p><strong>This checkout is locked</strong> after too many failed payment attempts, to protect cardholders. No further payment can be made on this page. Ask ${escapeHtml(view.merchantName)} for a new link.</p></div>`,
    nonce,
  );
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

const receiptDate = (date: Date) =>
  `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;

/**
 * The receipt of a paid session: when, how much, which card, and the payment's short reference
 * (what the payer quotes to the merchant's support). No sandbox hints: at most the test-mode marker.
 */
export function receiptPage(view: CheckoutView, payment: Payment | null, nonce: string): string {
  const { session } = view;
  const paidAt = payment?.capturedAt ?? session.completedAt ?? session.updatedAt;
  const fact = (id: string, label: string, value: string) =>
    `<dt>${escapeHtml(label)}</dt><dd id="${id}">${escapeHtml(value)}</dd>`;
  const facts = [
    fact('receipt-amount', 'Amount', payment ? amountOf(payment.amount, payment.currency) : money(view)),
    fact('receipt-date', 'Date', receiptDate(paidAt)),
    payment
      ? fact('receipt-card', 'Card', `${BRANDS[payment.cardBrand] ?? 'Card'} ending in ${payment.cardLast4}`)
      : '',
    payment ? fact('receipt-reference', 'Reference', paymentReferenceOf(payment.id)) : '',
  ].join('');
  const body = `${testMarker(session.livemode)}
<h1>${escapeHtml(view.merchantName)}</h1>
${session.description ? `<div class="muted">${escapeHtml(session.description)}</div>` : ''}
<p class="paid" role="status">Payment received. Thank you.</p>
<dl class="facts">${facts}</dl>
${payment ? `<p class="muted">Quote the reference if you contact ${escapeHtml(view.merchantName)} about this payment.</p>` : ''}`;
  return layout('Payment received', body, nonce);
}

export function inactiveLinkPage(merchantName: string, linkName: string, nonce: string): string {
  return layout(
    'Link no longer active',
    `<h1>${escapeHtml(merchantName)}</h1><p class="muted">${escapeHtml(linkName)}</p><div class="alert" role="alert">This payment link is no longer active. Ask ${escapeHtml(merchantName)} for a new one.</div>`,
    nonce,
  );
}

export function messagePage(title: string, message: string, nonce: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`, nonce);
}
