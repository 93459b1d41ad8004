import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { z } from 'zod';
import { Customer as CustomerRow, CustomerView, PaymentMethod as PaymentMethodRow } from '../../domain/customers';
import {
  attachPaymentMethodBodySchema,
  createCustomerBodySchema,
  toAttachPaymentMethodCommand,
  toCreateCustomerCommand,
  toUpdateCustomerCommand,
  updateCustomerBodySchema,
} from '../../wire/customers';
import { emailSchema, parseInput } from '../../wire/validation';
import { GraphQLContext, caller } from '../shared/context';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import {
  AttachPaymentMethodPayload,
  CreateCustomerPayload,
  DetachPaymentMethodPayload,
  SetDefaultPaymentMethodPayload,
  UpdateCustomerPayload,
} from './customer.payloads';
import {
  AttachPaymentMethodInput,
  CreateCustomerInput,
  Customer,
  CustomerConnection,
  CustomerPayment,
  DetachPaymentMethodInput,
  PaymentMethod,
  SetDefaultPaymentMethodInput,
  UpdateCustomerInput,
  definedFields,
} from './customer.types';

/** A customer whose cards and recent payments are already loaded: the loaders get them, no second query. */
function primed({ loaders }: GraphQLContext, view: CustomerView): Customer {
  loaders.customerById.clear(view.customer.id).prime(view.customer.id, view.customer);
  loaders.paymentMethodsByCustomerId.clear(view.customer.id).prime(view.customer.id, view.paymentMethods);
  loaders.recentPaymentsByCustomer.clear(view.customer).prime(view.customer, view.recentPayments);
  return Customer.from(view.customer);
}

const customerFilterSchema = z.object({ email: z.string().pipe(emailSchema).nullish() });

defineNode({
  type: Customer,
  entity: CustomerRow,
  load: async (context, id) => primed(context, await context.core.customers.get(caller(context), id)),
});
defineNode({
  type: PaymentMethod,
  entity: PaymentMethodRow,
  load: async (context, id) => PaymentMethod.from(await context.core.customers.getPaymentMethod(caller(context), id)),
});

/**
 * Customers and saved cards, the same operations as /api/v1/business/customers; inputs are checked
 * with the shapes REST also uses (src/wire/customers), so both faces answer the same errors.
 */
@Resolver(() => Customer)
export class CustomerResolver {
  @Query(() => Customer, {
    description: 'A customer who has paid the business in this mode (NOT_FOUND otherwise, as in REST)',
  })
  async customer(
    @Arg('id', () => ID, { description: "The customer's id (UUID)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<Customer> {
    return primed(context, await context.core.customers.get(caller(context), id));
  }

  @Query(() => CustomerConnection, {
    description: 'Customer profiles of the active business and mode, newest first',
    complexity: perRow,
  })
  async customers(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('email', () => String, { nullable: true, description: 'Only the profile with this email (any case)' })
    email?: string,
  ): Promise<CustomerConnection> {
    const ctx = caller(context);
    const filters = parseInput(customerFilterSchema, { email });
    const page = await context.core.customers.list(
      ctx,
      { email: filters.email ?? undefined },
      { kind: 'keyset', first: first ?? null, after: after ?? null },
    );
    return toConnection(page, (view) => primed(context, view));
  }

  @Mutation(() => CreateCustomerPayload, {
    description:
      'Creates a profile (CONFLICT when the email has one); earlier payments of the email become its payments',
  })
  async createCustomer(
    @Arg('input', { description: 'The email and optional profile fields' }) input: CreateCustomerInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreateCustomerPayload> {
    const who = caller(context);
    return payloadOf(CreateCustomerPayload, async () =>
      primed(
        context,
        await context.core.customers.create(
          who,
          toCreateCustomerCommand(parseInput(createCustomerBodySchema, definedFields(input))),
        ),
      ),
    );
  }

  @Mutation(() => UpdateCustomerPayload, {
    description: "Changes profile fields; null clears an optional one. A new email links that email's earlier payments",
  })
  async updateCustomer(
    @Arg('input', { description: 'The customer and the fields to change' }) input: UpdateCustomerInput,
    @Ctx() context: GraphQLContext,
  ): Promise<UpdateCustomerPayload> {
    const who = caller(context);
    const { id, ...fields } = input;
    return payloadOf(UpdateCustomerPayload, async () =>
      primed(
        context,
        await context.core.customers.update(
          who,
          toUpdateCustomerCommand(id, parseInput(updateCustomerBodySchema, definedFields(fields))),
        ),
      ),
    );
  }

  @Mutation(() => AttachPaymentMethodPayload, {
    description: 'Saves a card (or consumes a card token) for the customer; the first card becomes the default',
  })
  async attachPaymentMethod(
    @Arg('input', { description: 'The customer and the card (or card token)' }) input: AttachPaymentMethodInput,
    @Ctx() context: GraphQLContext,
  ): Promise<AttachPaymentMethodPayload> {
    const who = caller(context);
    const { customerId, ...source } = input;
    return payloadOf(AttachPaymentMethodPayload, async () => {
      const command = toAttachPaymentMethodCommand(
        customerId,
        parseInput(attachPaymentMethodBodySchema, definedFields(source)),
      );
      const { paymentMethod } = await context.core.customers.attachPaymentMethod(who, command);
      return PaymentMethod.from(paymentMethod);
    });
  }

  @Mutation(() => DetachPaymentMethodPayload, {
    description: 'Removes a saved card; the newest remaining card becomes the default if it was',
  })
  async detachPaymentMethod(
    @Arg('input', { description: 'The customer and the saved card' }) input: DetachPaymentMethodInput,
    @Ctx() context: GraphQLContext,
  ): Promise<DetachPaymentMethodPayload> {
    const who = caller(context);
    const { customerId, paymentMethodId } = input;
    return payloadOf(DetachPaymentMethodPayload, async () =>
      PaymentMethod.from(
        (await context.core.customers.detachPaymentMethod(who, { customerId, paymentMethodId })).paymentMethod,
      ),
    );
  }

  @Mutation(() => SetDefaultPaymentMethodPayload, { description: "Makes a saved card the customer's default" })
  async setDefaultPaymentMethod(
    @Arg('input', { description: 'The customer and the saved card' }) input: SetDefaultPaymentMethodInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SetDefaultPaymentMethodPayload> {
    const who = caller(context);
    const { customerId, paymentMethodId } = input;
    return payloadOf(SetDefaultPaymentMethodPayload, async () =>
      primed(context, await context.core.customers.setDefaultPaymentMethod(who, { customerId, paymentMethodId })),
    );
  }

  @FieldResolver(() => [PaymentMethod], { description: 'Saved cards, newest first' })
  async paymentMethods(@Root() customer: Customer, @Ctx() { loaders }: GraphQLContext): Promise<PaymentMethod[]> {
    return (await loaders.paymentMethodsByCustomerId.load(customer.id)).map(PaymentMethod.from);
  }

  @FieldResolver(() => PaymentMethod, {
    nullable: true,
    description: 'The card charged when none is named (the first card saved becomes it); null without saved cards',
  })
  async defaultPaymentMethod(
    @Root() customer: Customer,
    @Ctx() { loaders }: GraphQLContext,
  ): Promise<PaymentMethod | null> {
    if (!customer.defaultPaymentMethodId) return null;
    const method = (await loaders.paymentMethodsByCustomerId.load(customer.id)).find(
      (row) => row.id === customer.defaultPaymentMethodId,
    );
    return method ? PaymentMethod.from(method) : null;
  }

  @FieldResolver(() => [CustomerPayment], {
    description: 'The 20 most recent payments to the business in this mode, newest first',
    complexity: ({ childComplexity }) => 20 * childComplexity,
  })
  async recentPayments(@Root() customer: Customer, @Ctx() { loaders }: GraphQLContext): Promise<CustomerPayment[]> {
    return (await loaders.recentPaymentsByCustomer.load(customer)).map(CustomerPayment.from);
  }
}
