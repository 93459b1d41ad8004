import { ClassType, Field, ID, InterfaceType } from 'type-graphql';
import { entitiesHolding } from '../../domain/shared/row-lookup';
import { ErrorCode, isDomainError, validationError } from '../../domain/shared/errors';
import { GraphQLContext } from './context';

/**
 * Anything with an identity. Its `id` is the object's UUID, the same id the REST face answers:
 * UUIDs are unique across every type, so an id names one object (what Relay and Apollo Client's
 * cache need) and one id works on both faces. `node(id:)` finds the type from the id.
 */
@InterfaceType({
  description: 'An object with an identity: node(id:) and nodes(ids:) answer it, to the callers who may see it',
  // The object's own class, not the first class it is an instance of (TreasuryWebhookEndpoint extends WebhookEndpoint).
  resolveType: (value: object) => value.constructor as ClassType,
})
export abstract class Node {
  @Field(() => ID, { description: "The object's id (a UUID, the same on the REST face)" }) id: string;
}

/** How `node(id:)` reaches one type: the table its ids live in and the read that checks who may see it. */
export type NodeKind = {
  /** The GraphQL type, which implements Node. */
  type: ClassType;
  /** The object as its own query answers it (tenant and mode checked); NOT_FOUND when the caller may not see it. */
  load(context: GraphQLContext, id: string): Promise<object>;
  /** An operator field's type: node(id:) answers it to operator tokens only, and only these to them. */
  operator?: true;
} &
  /** The entity class whose primary key (a UUID) is the type's id. */
  (
    | { entity: new () => object; prefix?: undefined }
    /** Or: a type that is one per business (and mode), whose id is `<prefix>:<key>` (SandboxClock:<businessId>). */
    | { prefix: string; entity?: undefined }
  );

const kinds: NodeKind[] = [];

/** Makes a type reachable through `node(id:)`; each area declares its node types beside them. */
export function defineNode(kind: NodeKind): void {
  if (kinds.some((known) => known.type === kind.type)) return;
  kinds.push(kind);
}

export const nodeKinds = (): readonly NodeKind[] => kinds;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const MAX_NODES = 100;
/** What a type's own query answers for an object the caller may not see: node answers null for each. */
const HIDDEN = new Set<ErrorCode>([ErrorCode.NOT_FOUND, ErrorCode.FORBIDDEN, ErrorCode.SANDBOX_ONLY]);

/**
 * The objects of `ids`, in order: null for an id that is no object's, or an object of another
 * business or mode (the same as its own query's NOT_FOUND). One statement finds every id's type,
 * then each object is read as its own query reads it.
 */
export async function resolveNodes(context: GraphQLContext, ids: readonly string[]): Promise<Array<object | null>> {
  if (ids.length > MAX_NODES) throw validationError({ ids: [`at most ${MAX_NODES} ids`] });
  const candidates = [...new Set(ids.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
  // An operator token sees the operator's types, every other caller their business's: never both.
  const operator = context.ctx?.actor.kind === 'operator';
  const visible = kinds.filter((kind) => Boolean(kind.operator) === operator);
  const tables = visible.filter((kind) => kind.entity);
  const holders = await entitiesHolding(
    context.core.dataSource,
    tables.map((kind) => kind.entity!),
    candidates,
  );
  const kindsOf = (id: string): NodeKind[] => {
    if (UUID.test(id)) return (holders.get(id.toLowerCase()) ?? []).map((holder) => tables[holder]);
    const prefix = id.slice(0, id.indexOf(':'));
    return visible.filter((kind) => kind.prefix !== undefined && kind.prefix === prefix);
  };
  return Promise.all(
    ids.map(async (id) => {
      // Types that share a table (merchant and treasury webhook endpoints) each try the id; the first that may show it answers.
      for (const kind of kindsOf(id)) {
        try {
          return await kind.load(context, UUID.test(id) ? id.toLowerCase() : id);
        } catch (error) {
          if (!(isDomainError(error) && HIDDEN.has(error.code))) throw error;
        }
      }
      return null;
    }),
  );
}
