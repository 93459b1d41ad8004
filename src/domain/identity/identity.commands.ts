import { Mode, Role } from '../shared/modes';

/**
 * What the faces (REST, GraphQL, the operator CLI) ask of identity, in domain terms. A face checks
 * the shape of its wire input and builds one of these; the domain decides the rest.
 */

/** The credential a request presents, as read from its headers (absent ones null). */
export interface PresentedCredentials {
  apiKey?: string | null;
  bearerToken?: string | null;
  businessIdHeader?: string | null;
  modeHeader?: string | null;
}

/** `POST /business/auth/token`: the key and secret shown at account creation. */
export interface TokenExchange {
  apiKey: string;
  apiSecret: string;
}

/** A dashboard sign-in; any text is accepted and every refusal is the same. */
export interface SignIn {
  email: string;
  password: string;
}

/** A new dashboard account and its first business, as a face received it (email already lower-cased). */
export interface NewAccountRequest {
  email: string;
  password: string;
  name: string;
  businessName: string;
}

/** A new account ready to be written: the password is already hashed. */
export interface NewAccount {
  /** Lower-cased. */
  email: string;
  name: string;
  businessName: string;
  passwordHash: string;
}

/** The operator's `business create` (and the sandbox business of the first start): the business is named after `name`. */
export interface OperatorAccount {
  name: string;
  email: string;
  password: string;
}

/** A sign-up's confirmation: the token `start` answered and the emailed code. */
export interface SignUpConfirmation {
  signUpToken: string;
  code: string;
}

/** Changes to the business profile and the webhook URL of the context's mode; absent fields are unchanged. */
export interface BusinessSettingsChanges {
  name?: string;
  /** null removes it. */
  webhookUrl?: string | null;
}

/** `PUT /business/config`. */
export interface WebhookUrlConfig {
  /** null removes it. */
  webhookUrl: string | null;
}

/** The mode whose API key is replaced; the context's mode when absent. */
export interface RegenerateApiKey {
  mode?: Mode;
}

export interface ChangeMemberRole {
  membershipId: string;
  role: Role;
}

export interface TeamInvite {
  /** Lower-cased. */
  email: string;
  role: Role;
}

/**
 * What an operator may switch on a business (`tessera business update`), at least one of them. Each
 * setting belongs to its product: payments (per mode) and treasury.
 */
export interface OperatorBusinessUpdate {
  treasuryEnabled?: boolean;
  serverToServerCharging?: boolean;
  cardFeeBps?: number;
  cardFeeFixedMinor?: bigint;
  disputeFeeMinor?: bigint;
  /** Payouts worth at least this many US cents are held for review; null turns the threshold off. */
  payoutReviewThresholdUsdMinor?: bigint | null;
  /** The business is verified: only then does it get `/v1` keys and `/v1` access (design section 11). */
  verified?: boolean;
}

/** Issue (or reissue) the `/v1` secret key of a business's mode; the previous key is revoked at once. */
export interface IssueV1KeyCommand {
  mode: Mode;
}
