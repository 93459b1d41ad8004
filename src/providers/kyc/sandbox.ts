import { createHash } from 'node:crypto';
import { KycCheckRequest, KycCheckStarted, KycProvider } from './port';

/**
 * The sandbox KYC provider: every check stays PENDING until the tester decides it, on Tessera's
 * hosted KYC page (`kycLinkUrl`) or with the sandbox approve / reject operations (docs/sandbox.md).
 * No data leaves Tessera.
 */
export class SandboxKycProvider implements KycProvider {
  readonly name = 'sandbox-kyc';

  async start(request: KycCheckRequest): Promise<KycCheckStarted> {
    // The same check id always gets the same reference: a repeated start is the same check.
    return {
      providerRef: `sbx_kyc_${createHash('sha256').update(request.checkId).digest('hex').slice(0, 20)}`,
      hostedUrl: null,
    };
  }
}
