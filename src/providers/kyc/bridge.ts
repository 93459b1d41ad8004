import type { BridgeSettings } from '../../config';
import { DomainError, ErrorCode } from '../../domain/shared/errors';
import { BridgeApiError, BridgeClient, BridgeKycLink } from '../treasury-rail/bridge-client';
import { KycCheckRequest, KycCheckStarted, KycProvider } from './port';

/**
 * Bridge as the KYC provider (https://apidocs.bridge.xyz, KYC links): a check is a KYC link
 * (`POST /v0/kyc_links`, keyed by Tessera's check id), which makes the end-user a Bridge customer.
 * The check's reference is that customer's id (what Bridge's `kyc_link` and `customer` webhooks
 * name, and what the treasury rail opens wallets for); its `kycLinkUrl` is Bridge's hosted KYC
 * flow (`kyc_link`). Bridge's webhooks decide the check (bridge-webhooks.ts).
 */
export class BridgeKycProvider implements KycProvider {
  readonly name = 'bridge';
  private readonly client: BridgeClient;

  constructor(settings: Pick<BridgeSettings, 'apiKey' | 'apiBase'>, client?: BridgeClient) {
    this.client = client ?? new BridgeClient(settings);
  }

  async start(request: KycCheckRequest): Promise<KycCheckStarted> {
    const link = await this.client
      .post<BridgeKycLink>(
        '/kyc_links',
        { full_name: request.name ?? request.email, email: request.email, type: 'individual' },
        request.checkId,
      )
      .catch((error: unknown) => {
        // Bridge refused the link (its own checks of the end-user's details): no check was started here.
        if (error instanceof BridgeApiError)
          throw new DomainError(ErrorCode.UNPROCESSABLE, `Bridge did not start the KYC check: ${error.message}`);
        throw error;
      });
    return { providerRef: link.customer_id, hostedUrl: link.kyc_link };
  }
}
