import { Ctx, Arg, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLContext, caller } from '../shared/context';
import { Payload, payloadOf } from '../shared/payload';
import { defineNode } from '../shared/node';
import { notFound } from '../../domain/shared/errors';
import { PayoutUserErrors } from './payout.errors';
import { PayoutPinStatus, SetPayoutPinInput } from './payout-pin.types';

export const SetPayoutPinPayload = Payload('SetPayoutPin', 'payoutPin', () => PayoutPinStatus, PayoutUserErrors);
export type SetPayoutPinPayload = InstanceType<typeof SetPayoutPinPayload>;

defineNode({
  type: PayoutPinStatus,
  prefix: 'PayoutPinStatus',
  load: async (context, id) => {
    const who = caller(context);
    if (id !== `PayoutPinStatus:${who.requireBusiness()}`) throw notFound('PayoutPinStatus');
    return PayoutPinStatus.from(who.requireBusiness(), await context.core.payoutPins.status(who));
  },
});

/** The business's payout PIN, the same operations as /api/v1/business/payouts/pin. */
@Resolver()
export class PayoutPinResolver {
  @Query(() => PayoutPinStatus, { description: 'Whether the payout PIN is set, and until when it is locked' })
  async payoutPin(@Ctx() context: GraphQLContext): Promise<PayoutPinStatus> {
    const who = caller(context);
    const status = await context.core.payoutPins.status(who);
    return PayoutPinStatus.from(who.requireBusiness(), status);
  }

  @Mutation(() => SetPayoutPinPayload, {
    description:
      'Sets or changes the payout PIN (OWNER only). Wrong currentPin: INVALID_PIN; 5 wrong in a row lock it for the credential for 15 minutes, 10 from several credentials for the business (PIN_LOCKED)',
  })
  async setPayoutPin(
    @Arg('input', { description: 'The new PIN, and the current one when changing it' }) input: SetPayoutPinInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SetPayoutPinPayload> {
    const who = caller(context);
    return payloadOf(SetPayoutPinPayload, async () => {
      const status = await context.core.payoutPins.set(who, SetPayoutPinInput.toCommand(input));
      return PayoutPinStatus.from(who.requireBusiness(), status);
    });
  }
}
