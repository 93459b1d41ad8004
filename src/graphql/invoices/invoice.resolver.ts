import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Invoice as InvoiceRow, InvoiceStatus } from '../../domain/invoices';
import { CheckoutSession } from '../checkout/checkout-session.types';
import { createInvoiceCommand, createInvoiceSchema, invoiceFiltersSchema } from '../../wire/checkout';
import { parseInput } from '../../wire/validation';
import { GraphQLContext, caller } from '../shared/context';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import { CreateInvoicePayload, FinalizeInvoicePayload, VoidInvoicePayload } from './invoice.payloads';
import {
  CreateInvoiceInput,
  FinalizeInvoiceInput,
  Invoice,
  InvoiceConnection,
  VoidInvoiceInput,
} from './invoice.types';

defineNode({
  type: Invoice,
  entity: InvoiceRow,
  load: async (context, id) => Invoice.from(await context.core.invoices.get(caller(context), id)),
});

/** Invoices, the same operations as /api/v1/business/invoices. */
@Resolver(() => Invoice)
export class InvoiceResolver {
  @Query(() => InvoiceConnection, {
    description: 'Invoices of the active business and mode, newest first',
    complexity: perRow,
  })
  async invoices(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('status', () => InvoiceStatus, { nullable: true, description: 'Only invoices in this status' })
    status?: InvoiceStatus,
  ): Promise<InvoiceConnection> {
    const page = await context.core.invoices.list(
      caller(context),
      parseInput(invoiceFiltersSchema, { status: status ?? undefined }),
      {
        kind: 'keyset',
        first: first ?? null,
        after: after ?? null,
      },
    );
    return toConnection(page, Invoice.from);
  }

  @Query(() => Invoice, {
    description:
      'One invoice of the active business and mode (NOT_FOUND for an unknown id or another business or mode)',
  })
  async invoice(
    @Arg('id', () => ID, { description: "The invoice's id (UUID)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<Invoice> {
    return Invoice.from(await context.core.invoices.get(caller(context), id));
  }

  @Mutation(() => CreateInvoicePayload, { description: 'Creates a DRAFT invoice with the next invoice number' })
  async createInvoice(
    @Arg('input', { description: 'The customer, currency and lines (or amount)' }) input: CreateInvoiceInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreateInvoicePayload> {
    const who = caller(context);
    return payloadOf(CreateInvoicePayload, async () => {
      const items = input.items?.map((item) => ({ ...item }));
      const command = createInvoiceCommand(parseInput(createInvoiceSchema, { ...input, items }));
      return Invoice.from(await context.core.invoices.create(who, command));
    });
  }

  @Mutation(() => FinalizeInvoicePayload, {
    description: 'Sends a DRAFT invoice: OPEN, with a checkout session to pay it',
  })
  async finalizeInvoice(
    @Arg('input', { description: 'The DRAFT invoice to send' }) input: FinalizeInvoiceInput,
    @Ctx() context: GraphQLContext,
  ): Promise<FinalizeInvoicePayload> {
    const who = caller(context);
    return payloadOf(FinalizeInvoicePayload, async () =>
      Invoice.from(await context.core.invoices.finalize(who, input.id)),
    );
  }

  @Mutation(() => VoidInvoicePayload, { description: 'Withdraws a DRAFT or OPEN invoice' })
  async voidInvoice(
    @Arg('input', { description: 'The invoice to withdraw' }) input: VoidInvoiceInput,
    @Ctx() context: GraphQLContext,
  ): Promise<VoidInvoicePayload> {
    const who = caller(context);
    return payloadOf(VoidInvoicePayload, async () => Invoice.from(await context.core.invoices.void(who, input.id)));
  }

  @FieldResolver(() => CheckoutSession, {
    nullable: true,
    description: 'The session the customer pays through (once sent)',
  })
  async checkoutSession(@Root() invoice: Invoice, @Ctx() context: GraphQLContext): Promise<CheckoutSession | null> {
    if (!invoice.checkoutSessionId) return null;
    const session = await context.loaders.checkoutSessionById.load(invoice.checkoutSessionId);
    return session ? CheckoutSession.from(session, context.core) : null;
  }
}
