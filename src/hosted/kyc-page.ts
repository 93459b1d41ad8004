import { DecideKycOnPageCommand, KycPage, KycStatus, MAX_REASON_LENGTH, MAX_REASONS } from '../domain/treasury';
import { DomainError, ErrorCode, FieldErrors, validationError } from '../domain/shared/errors';
import { escapeHtml, fieldState, fieldStatus, layout } from './html';

const STATUS_TEXT: Record<string, string> = {
  PENDING: 'Verification pending: waiting for a decision.',
  APPROVED: 'Verification approved.',
  REJECTED: 'Verification rejected.',
};

const MAX_REASONS_LENGTH = 4000;

/**
 * The sandbox's hosted KYC page behind `kycLinkUrl`: what a real provider's page would check (the
 * end-user, the level), and, while the check is PENDING, the tester's two decisions. Reject is
 * final for the check, so it stands apart: its own section, a warning of what it does, and a
 * button styled as destructive.
 */
export function kycPage(page: KycPage, nonce: string, errors: FieldErrors = {}): string {
  const { check, endUser } = page;
  const token = escapeHtml(check.hostedToken);
  const fields = fieldState(errors, ['reasons']);
  const reasons =
    check.rejectionReasons.length > 0
      ? `<h2>Rejection reasons</h2><ul id="rejection-reasons">${check.rejectionReasons.map((reason) => `<li>${escapeHtml(reason)}</li>`).join('')}</ul>`
      : '';
  const problems = Object.entries(errors)
    .filter(([name]) => name !== 'reasons')
    .flatMap(([, messages]) => messages)
    .map((message) => `<div class="alert" role="alert">${escapeHtml(message)}</div>`)
    .join('');
  const reasonsField = fieldStatus(fields, 'reasons', 'reasons');
  const decide =
    check.status !== KycStatus.PENDING
      ? ''
      : `
<form method="post" action="/kyc/${token}/approve" id="approve"><button type="submit" id="approve-button">Approve verification</button></form>
<section class="danger-zone" aria-labelledby="reject-heading">
<h2 id="reject-heading">Reject this verification</h2>
<p class="muted" id="reject-warning">Rejecting is final for this check: ${escapeHtml(endUser.name ?? endUser.email)} becomes <strong>rejected</strong> and ${escapeHtml(page.partnerName)} is told why. A new check must be started to try again.</p>
<form method="post" action="/kyc/${token}/reject" id="reject" novalidate>
<label for="reasons">Rejection reasons (one per line)</label>
<textarea id="reasons" name="reasons" rows="3" cols="40"${reasonsField.attrs}>document_unreadable</textarea>${reasonsField.message}
<button type="submit" id="reject-button" class="danger" aria-describedby="reject-warning">Reject verification</button></form>
</section>`;
  const body = `<div class="test">Sandbox KYC: no identity data is checked. Decide the outcome as the verification provider would.</div>
<h1>Identity verification for ${escapeHtml(page.partnerName)}</h1>
<p><span class="muted">End-user</span><br><strong id="end-user">${escapeHtml(endUser.name ?? endUser.email)}</strong> (${escapeHtml(endUser.email)})</p>
<p><span class="muted">Level</span><br><strong id="kyc-level">${escapeHtml(check.level)}</strong></p>
<p id="kyc-status" role="status" data-status="${escapeHtml(check.status)}" data-check-id="${escapeHtml(check.id)}">${escapeHtml(STATUS_TEXT[check.status] ?? check.status)}</p>
${reasons}${problems}${decide}`;
  return layout('Identity verification', body, nonce);
}

/** The page's reject form (application/x-www-form-urlencoded): reasons, one per line. */
export function readKycDecision(token: string, decision: 'approve' | 'reject', body: unknown): DecideKycOnPageCommand {
  if (decision === 'approve') return { token, decision, reasons: [] };
  const form = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const raw = typeof form.reasons === 'string' ? form.reasons : '';
  if (raw.length > MAX_REASONS_LENGTH)
    throw validationError({ reasons: [`must be at most ${MAX_REASONS_LENGTH} characters`] });
  return {
    token,
    decision,
    reasons: raw
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line.length > 0),
  };
}

/** The domain's refusal of a decision on the page, in the tester's words: the reasons on their field, a decided check as the page's message. */
export function kycPageErrors(error: DomainError): FieldErrors {
  if (error.code === ErrorCode.CONFLICT)
    return { _: ['This verification was already decided: the page shows its outcome.'] };
  if (error.fieldErrors?.reasons) {
    return {
      reasons: [`Enter 1 to ${MAX_REASONS} reasons, one per line, each at most ${MAX_REASON_LENGTH} characters`],
    };
  }
  return { _: [error.message] };
}
