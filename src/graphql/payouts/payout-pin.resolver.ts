import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLContext, caller } from '../shared/context';
import { PayoutPinStatus, SetPayoutPinInput } from './payout-pin.types';

/** The business's payout PIN, the same operations as /api/v1/business/payouts/pin. */
@Resolver()
export class PayoutPinResolver {
  @Query(() => PayoutPinStatus, { description: 'Whether the payout PIN is set, and until when it is locked' })
  async payoutPin(@Ctx() context: GraphQLContext): Promise<PayoutPinStatus> {
    return PayoutPinStatus.from(await context.core.payoutPins.status(caller(context)));
  }

  @Mutation(() => PayoutPinStatus, {
    description: 'Sets or changes the payout PIN (OWNER only). Wrong currentPin: INVALID_PIN; 5 wrong in a row lock it for the credential for 15 minutes, 10 from several credentials for the business (PIN_LOCKED)',
  })
  async setPayoutPin(@Arg('input') input: SetPayoutPinInput, @Ctx() context: GraphQLContext): Promise<PayoutPinStatus> {
    return PayoutPinStatus.from(await context.core.payoutPins.set(caller(context), SetPayoutPinInput.toCommand(input)));
  }
}
