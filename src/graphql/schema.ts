import path from 'node:path';
import { GraphQLSchema, OperationTypeNode } from 'graphql';
import { buildSchema, emitSchemaDefinitionFile } from 'type-graphql';
import { TesseraPubSub } from '../domain/events/pubsub';
import { AuthResolver, BusinessResolver, MembershipResolver, UserResolver } from './identity/identity.resolver';
import { TeamInvitationResolver } from './identity/team-invitation.resolver';
import { WalletResolver } from './wallets/wallet.resolver';
import { EventResolver } from './events/event.resolver';
import { WebhookEndpointResolver } from './webhooks/webhook-endpoint.resolver';
import { PaymentResolver } from './payments/payment.resolver';
import { TreasuryWebhookEndpointResolver } from './webhooks/treasury-webhook-endpoint.resolver';
import { CustomerResolver } from './customers/customer.resolver';
import { FraudResolver } from './fraud/fraud.resolver';
import { CheckoutSessionResolver } from './checkout/checkout-session.resolver';
import { PaymentLinkResolver } from './payment-links/payment-link.resolver';
import { InvoiceResolver } from './invoices/invoice.resolver';
import { RecurringGiftResolver } from './recurring-gifts/recurring-gift.resolver';
import { PayoutPinResolver } from './payouts/payout-pin.resolver';
import { CollectionResolver } from './collections/collection.resolver';
import { PayoutBatchResolver, PayoutRecipientResolver, PayoutResolver } from './payouts/payout.resolver';
import { PayoutScheduleResolver } from './payouts/schedule.resolver';
import { SandboxClockResolver } from './sandbox/clock.resolver';
import {
  TreasuryEndUserResolver,
  TreasuryKycResolver,
  TreasuryPayoutResolver,
  TreasuryWalletResolver,
} from './treasury/treasury.resolver';
import { V1KeyResolver } from './v1/v1-key.resolver';
import { WalletLowBalanceThresholdResolver } from './wallets/low-balance.resolver';
import { PROJECT_ROOT } from '../project';
import { NodeResolver } from './shared/node.resolver';

export const resolvers = [
  NodeResolver,
  AuthResolver,
  UserResolver,
  MembershipResolver,
  BusinessResolver,
  TeamInvitationResolver,
  WalletResolver,
  EventResolver,
  WebhookEndpointResolver,
  TreasuryWebhookEndpointResolver,
  PaymentResolver,
  CustomerResolver,
  FraudResolver,
  CheckoutSessionResolver,
  PaymentLinkResolver,
  InvoiceResolver,
  RecurringGiftResolver,
  PayoutPinResolver,
  PayoutRecipientResolver,
  PayoutResolver,
  PayoutBatchResolver,
  PayoutScheduleResolver,
  SandboxClockResolver,
  CollectionResolver,
  TreasuryEndUserResolver,
  TreasuryKycResolver,
  TreasuryWalletResolver,
  TreasuryPayoutResolver,
  V1KeyResolver,
  WalletLowBalanceThresholdResolver,
] as const;

export const SCHEMA_FILE = path.join(PROJECT_ROOT, 'schema.graphql');

/** The root types' descriptions: type-graphql has no option for them, so they are set on the built schema. */
const ROOT_DESCRIPTIONS = {
  query: "Reads, of the caller's business in the caller's mode (the test/live switch)",
  mutation: 'Writes: each takes one input and answers a payload with the object and userErrors',
  subscription: "Live changes over graphql-ws, of the subscriber's business and mode only",
} as const;

export async function buildTesseraSchema(
  pubSub: TesseraPubSub,
  emitSchemaFile: string | false = false,
): Promise<GraphQLSchema> {
  const schema = await buildSchema({ resolvers, pubSub, validate: false });
  for (const [operation, description] of Object.entries(ROOT_DESCRIPTIONS)) {
    const root = schema.getRootType(operation as OperationTypeNode);
    if (root) root.description = description;
  }
  if (emitSchemaFile) await emitSchemaDefinitionFile(emitSchemaFile, schema, { sortedSchema: true });
  return schema;
}
