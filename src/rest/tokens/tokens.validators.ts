import { z } from 'zod';
import { cardSchema } from '../../wire/card';
import { CreateCardTokenCommand } from '../../domain/tokens';
import { timestampSchema } from '../shared/schemas';

export const createCardTokenBodySchema = z.object({ card: cardSchema }, { error: 'must be a JSON object with a card' });

export const toCreateCardTokenCommand = (body: z.output<typeof createCardTokenBodySchema>): CreateCardTokenCommand =>
  body;

export const cardTokenSchema = z
  .object({
    id: z.string().describe('tok_…; single-use, valid for 15 minutes'),
    object: z.literal('card_token'),
    card: z.object({
      brand: z.string().describe('visa, mastercard, amex, discover or unknown'),
      last4: z.string(),
      expiryMonth: z.number().int().min(1).max(12),
      expiryYear: z.number().int().min(1000).max(9999).describe('Four-digit year'),
      country: z.string().describe('Issuing country (ISO 3166-1 alpha-2)'),
    }),
    livemode: z.boolean(),
    expiresAt: timestampSchema,
    createdAt: timestampSchema,
  })
  .meta({ id: 'CardToken' });
