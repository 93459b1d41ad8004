import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { z } from 'zod';
import { CustomerView } from '../../domain/customers/customer.service';
import {
  attachPaymentMethodBodySchema, createCustomerBodySchema, toAttachPaymentMethodCommand, toCreateCustomerCommand, toUpdateCustomerCommand,
  updateCustomerBodySchema,
} from '../../wire/customers';
import { emailSchema, parseInput } from '../../wire/validation';
import { GraphQLContext, caller } from '../shared/context';
import { toConnection } from '../shared/connection';
import {
  AttachPaymentMethodInput, CreateCustomerInput, Customer, CustomerConnection, CustomerPayment, PaymentMethod, UpdateCustomerInput, definedFields,
} from './customer.types';

/** A customer whose cards and recent payments are already loaded: the loaders get them, no second query. */
function primed({ loaders }: GraphQLContext, view: CustomerView): Customer {
  loaders.customerById.clear(view.customer.id).prime(view.customer.id, view.customer);
  loaders.paymentMethodsByCustomerId.clear(view.customer.id).prime(view.customer.id, view.paymentMethods);
  loaders.recentPaymentsByCustomer.clear(view.customer).prime(view.customer, view.recentPayments);
  return Customer.from(view.customer);
}

const customerFilterSchema = z.object({ email: z.string().pipe(emailSchema).nullish() });

/**
 * Customers and saved cards, the same operations as /api/v1/business/customers; inputs are checked
 * with the shapes REST also uses (src/wire/customers), so both faces answer the same errors.
 */
@Resolver(() => Customer)
export class CustomerResolver {
  @Query(() => Customer, { description: 'A customer who has paid the business in this mode (NOT_FOUND otherwise, as in REST)' })
  async customer(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<Customer> {
    return primed(context, await context.core.customers.get(caller(context), id));
  }

  @Query(() => CustomerConnection, {
    description: 'Customer profiles of the active business and mode, newest first',
    complexity: ({ args, childComplexity }) => (args.first ?? 20) * childComplexity,
  })
  async customers(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('email', () => String, { nullable: true }) email?: string,
  ): Promise<CustomerConnection> {
    const ctx = caller(context);
    const filters = parseInput(customerFilterSchema, { email });
    const page = await context.core.customers.list(ctx, { email: filters.email ?? undefined }, { kind: 'keyset', first: first ?? null, after: after ?? null });
    return toConnection(page, (view) => primed(context, view));
  }

  @Mutation(() => Customer, { description: 'Creates a profile (CONFLICT when the email has one); earlier payments of the email become its payments' })
  async createCustomer(@Arg('input') input: CreateCustomerInput, @Ctx() context: GraphQLContext): Promise<Customer> {
    return primed(context, await context.core.customers.create(caller(context), toCreateCustomerCommand(parseInput(createCustomerBodySchema, definedFields(input)))));
  }

  @Mutation(() => Customer)
  async updateCustomer(@Arg('id', () => ID) id: string, @Arg('input') input: UpdateCustomerInput, @Ctx() context: GraphQLContext): Promise<Customer> {
    return primed(context, await context.core.customers.update(caller(context), toUpdateCustomerCommand(id, parseInput(updateCustomerBodySchema, definedFields(input)))));
  }

  @Mutation(() => PaymentMethod, { description: 'Saves a card (or consumes a card token) for the customer; the first card becomes the default' })
  async attachPaymentMethod(
    @Arg('customerId', () => ID) customerId: string,
    @Arg('input') input: AttachPaymentMethodInput,
    @Ctx() context: GraphQLContext,
  ): Promise<PaymentMethod> {
    const ctx = caller(context);
    const command = toAttachPaymentMethodCommand(customerId, parseInput(attachPaymentMethodBodySchema, definedFields(input)));
    const { paymentMethod } = await context.core.customers.attachPaymentMethod(ctx, command);
    return PaymentMethod.from(paymentMethod);
  }

  @Mutation(() => PaymentMethod, { description: 'Removes a saved card; the newest remaining card becomes the default if it was' })
  async detachPaymentMethod(
    @Arg('customerId', () => ID) customerId: string,
    @Arg('paymentMethodId', () => ID) paymentMethodId: string,
    @Ctx() context: GraphQLContext,
  ): Promise<PaymentMethod> {
    const { paymentMethod } = await context.core.customers.detachPaymentMethod(caller(context), { customerId, paymentMethodId });
    return PaymentMethod.from(paymentMethod);
  }

  @Mutation(() => Customer)
  async setDefaultPaymentMethod(
    @Arg('customerId', () => ID) customerId: string,
    @Arg('paymentMethodId', () => ID) paymentMethodId: string,
    @Ctx() context: GraphQLContext,
  ): Promise<Customer> {
    return primed(context, await context.core.customers.setDefaultPaymentMethod(caller(context), { customerId, paymentMethodId }));
  }

  @FieldResolver(() => [PaymentMethod], { description: 'Saved cards, newest first' })
  async paymentMethods(@Root() customer: Customer, @Ctx() { loaders }: GraphQLContext): Promise<PaymentMethod[]> {
    return (await loaders.paymentMethodsByCustomerId.load(customer.id)).map(PaymentMethod.from);
  }

  @FieldResolver(() => PaymentMethod, { nullable: true })
  async defaultPaymentMethod(@Root() customer: Customer, @Ctx() { loaders }: GraphQLContext): Promise<PaymentMethod | null> {
    if (!customer.defaultPaymentMethodId) return null;
    const method = (await loaders.paymentMethodsByCustomerId.load(customer.id)).find((row) => row.id === customer.defaultPaymentMethodId);
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
