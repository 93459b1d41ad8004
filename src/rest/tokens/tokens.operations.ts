import type { OperationsByTag } from '../../http/openapi';

/**
 * The tokens area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  'Card tokens': {
    description: 'Card tokens made in the browser with the publishable key.',
    operations: {
      'OPTIONS /api/v1/tokens': {
        id: 'preflightCardToken',
        summary: 'Card token CORS preflight',
        description:
          "The browser's CORS preflight of POST /api/v1/tokens: allows the call from any origin with the publishable key header.",
      },
      'POST /api/v1/tokens': {
        id: 'createCardToken',
        summary: 'Create a card token',
        description:
          "Turns card fields entered in the browser into a single-use token (`tok_…`), authenticated with the publishable key; the card number never reaches the merchant's server.",
      },
    },
  },
};
