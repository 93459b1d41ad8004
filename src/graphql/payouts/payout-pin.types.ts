import { Field, InputType, ObjectType } from 'type-graphql';
import { Node } from '../shared/node';
import { PayoutPinStatus as PayoutPinStatusData, SetPayoutPinCommand } from '../../domain/payouts';

@ObjectType({
  description:
    "The payout PIN of the business: whether it is set and whether it is locked (never the PIN itself); its id is PayoutPinStatus:<businessId>, the same whoever reads it (lockedUntil is the caller's own)",
  implements: Node,
})
export class PayoutPinStatus extends Node {
  @Field({ description: 'Whether the business has a payout PIN (one for test and live mode alike)' }) isSet: boolean;
  @Field(() => Date, {
    nullable: true,
    description:
      'When the lock that applies to the caller ends (of its own credential, or of the whole business); null when not locked',
  })
  lockedUntil: Date | null;
  @Field(() => Date, { nullable: true, description: 'When the PIN was last set or changed; null when never set' })
  updatedAt: Date | null;

  static from(businessId: string, status: PayoutPinStatusData): PayoutPinStatus {
    return Object.assign(new PayoutPinStatus(), {
      id: `PayoutPinStatus:${businessId}`,
      isSet: status.isSet,
      lockedUntil: status.lockedUntil,
      updatedAt: status.updatedAt,
    });
  }
}

@InputType({ description: 'A new payout PIN; changing one already set needs currentPin (PUT /business/payouts/pin)' })
export class SetPayoutPinInput {
  @Field({ description: 'Exactly 6 digits' }) pin: string;
  @Field(() => String, {
    nullable: true,
    description: 'The PIN set now; required to change it, ignored on the first set',
  })
  currentPin?: string | null;

  static toCommand(input: SetPayoutPinInput): SetPayoutPinCommand {
    return { pin: input.pin, currentPin: input.currentPin ?? null };
  }
}
