import type { RequestContext } from '../shared/context';
import type { FieldErrors } from '../shared/errors';
import type { Business } from './identity.entities';
import type { OperatorBusinessUpdate } from './identity.commands';

/**
 * A product's settings as the operator's business update (`tessera business update`) changes them.
 * Each product area contributes one from its `<area>.settings.ts` and the composition root hands
 * the list to BusinessService, so identity names no product.
 */
export interface ProductSettings<Changes> {
  /** Why the changes are refused, by field; empty when they are acceptable or name none of the product's settings. */
  errors(changes: Changes): FieldErrors;
  /**
   * Writes the checked changes of the context's business and mode in the caller's transaction.
   * `business` is locked, and saved once every product has applied its changes to it.
   */
  apply(tx: RequestContext, business: Business, changes: Changes): Promise<void>;
}

declare module '../shared/area' {
  interface AreaContributions {
    /** The product's settings in the operator's business update (identity gathers every area's). */
    productSettings?: ProductSettings<OperatorBusinessUpdate>;
  }
}
