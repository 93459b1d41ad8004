import { DecideKycOnPageCommand } from '../domain/treasury/treasury.commands';
import type { KycPage } from '../domain/treasury/kyc.service';
import { FieldErrors, validationError } from '../domain/shared/errors';
import { escapeHtml, layout } from './html';

const STATUS_TEXT: Record<string, string> = {
  PENDING: 'Verification pending: waiting for a decision.',
  APPROVED: 'Verification approved.',
  REJECTED: 'Verification rejected.',
};

/**
 * The sandbox's hosted KYC page behind `kycLinkUrl`: what a real provider's page would check (the
 * end-user, the level), and, while the check is PENDING, the tester's two buttons.
 */
export function kycPage(page: KycPage, nonce: string, errors: FieldErrors = {}): string {
  const { check, endUser } = page;
  const token = escapeHtml(check.hostedToken);
  const reasons = check.rejectionReasons.length > 0
    ? `<ul id="rejection-reasons">${check.rejectionReasons.map((reason) => `<li>${escapeHtml(reason)}</li>`).join('')}</ul>` : '';
  const problems = Object.values(errors).flat().map((message) => `<div class="alert" role="alert">${escapeHtml(message)}</div>`).join('');
  const decide = check.status !== 'PENDING' ? '' : `
<form method="post" action="/kyc/${token}/approve" id="approve"><button type="submit" id="approve-button">Approve verification</button></form>
<form method="post" action="/kyc/${token}/reject" id="reject">
<label for="reasons">Rejection reasons (one per line)</label>
<textarea id="reasons" name="reasons" rows="3" cols="40">document_unreadable</textarea>
<button type="submit" id="reject-button">Reject verification</button></form>`;
  const body = `<div class="test">Sandbox KYC: no identity data is checked. Decide the outcome as the verification provider would.</div>
<h1>Identity verification for ${escapeHtml(page.partnerName)}</h1>
<p><span class="muted">End-user</span><br><strong id="end-user">${escapeHtml(endUser.name ?? endUser.email)}</strong> (${escapeHtml(endUser.email)})</p>
<p><span class="muted">Level</span><br><strong id="kyc-level">${escapeHtml(check.level)}</strong></p>
<p id="kyc-status" data-status="${escapeHtml(check.status)}" data-check-id="${escapeHtml(check.id)}">${escapeHtml(STATUS_TEXT[check.status] ?? check.status)}</p>
${reasons}${problems}${decide}`;
  return layout('Identity verification', body, nonce);
}

/** The page's reject form (application/x-www-form-urlencoded): reasons, one per line. */
export function readKycDecision(token: string, decision: 'approve' | 'reject', body: unknown): DecideKycOnPageCommand {
  if (decision === 'approve') return { token, decision, reasons: [] };
  const form = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const raw = typeof form.reasons === 'string' ? form.reasons : '';
  if (raw.length > 4000) throw validationError({ reasons: ['must be at most 4000 characters'] });
  return { token, decision, reasons: raw.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0) };
}
