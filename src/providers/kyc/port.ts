/** What Tessera tells a KYC provider when a check starts. */
export interface KycCheckRequest {
  /** Tessera's check id: the provider's idempotency reference, so a repeated start is one check there. */
  checkId: string;
  endUserId: string;
  level: 'basic' | 'full';
  email: string;
  name: string | null;
}

export interface KycCheckStarted {
  providerRef: string;
  /**
   * The page the end-user opens to go through the check: the provider's own URL, or null when
   * Tessera serves the page itself (the sandbox: `/kyc/<token>`, where the tester decides).
   */
  hostedUrl: string | null;
}

/** An identity-verification (KYC) provider: starts checks; their outcome arrives later (a decision). */
export interface KycProvider {
  readonly name: string;
  start(request: KycCheckRequest): Promise<KycCheckStarted>;
}
