import { IsNull } from 'typeorm';
import { hashApiKey } from './credentials';
import { OperatorToken } from './operator-token.entity';
import { RequestContext } from '../shared/context';
import { randomToken } from '../shared/crypto';
import { forbidden, notFound, unauthorized, validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { Mode } from '../shared/modes';

/** The prefix of the operator's tokens: the service's name, then `op_` (never a business's key). */
export const OPERATOR_TOKEN_PREFIX = 'tessera_op_';
export const isOperatorToken = (value: string) => value.startsWith(OPERATOR_TOKEN_PREFIX);

/** An operator token anywhere but GraphQL's operator fields (a merchant field, REST, a subscription). */
export const operatorTokenRefused = () =>
  forbidden('An operator token (tessera_op_…) may use only the operator fields of GraphQL (operator…)');

/** An operator token as issued: the token itself is shown this once. */
export interface IssuedOperatorToken {
  id: string;
  name: string;
  token: string;
  tokenHint: string;
  createdAt: Date;
}

const MAX_NAME_LENGTH = 200;

/**
 * The platform operator's tokens for GraphQL's operator fields (docs/decisions.md, "Operator
 * access to GraphQL"): issued, listed and revoked by the operator's CLI only, kept as hashes (the
 * same SHA-256 lookup as API keys), and looked up on every request, so a revoked one is refused at
 * once by every process. A token acts for no business: it reaches only the operator fields.
 */
export class OperatorTokenService {
  async issue(ctx: RequestContext, command: { name: string }): Promise<IssuedOperatorToken> {
    ctx.requireOperator();
    const name = command.name.trim();
    if (name.length === 0 || name.length > MAX_NAME_LENGTH)
      throw validationError({ name: [`must be 1 to ${MAX_NAME_LENGTH} characters`] });
    const token = `${OPERATOR_TOKEN_PREFIX}${randomToken(32)}`;
    const row = await ctx.repo(OperatorToken).save(
      ctx.repo(OperatorToken).create({
        name,
        tokenHash: hashApiKey(token),
        tokenHint: `${token.slice(0, 16)}…`,
        revokedAt: null,
      }),
    );
    return { id: row.id, name: row.name, token, tokenHint: row.tokenHint, createdAt: row.createdAt };
  }

  /** Every token, oldest first, revoked ones included (hints only). */
  async list(ctx: RequestContext): Promise<OperatorToken[]> {
    ctx.requireOperator();
    return ctx.repo(OperatorToken).find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Revokes a token at once (revoking a revoked one answers it as it is); NOT_FOUND for an unknown id. */
  async revoke(ctx: RequestContext, id: string): Promise<OperatorToken> {
    ctx.requireOperator();
    if (!isUuid(id)) throw notFound('Operator token');
    await ctx.repo(OperatorToken).update({ id, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    const token = await ctx.repo(OperatorToken).findOne({ where: { id } });
    if (!token) throw notFound('Operator token');
    return token;
  }
}

/**
 * The operator's context for a presented token: an `operator` actor of no business; UNAUTHENTICATED
 * for an unknown or revoked token (one message for both, so a caller learns nothing of others).
 */
export async function authenticateOperatorToken(base: RequestContext, token: string): Promise<RequestContext> {
  const found = await base
    .repo(OperatorToken)
    .findOne({ where: { tokenHash: hashApiKey(token), revokedAt: IsNull() } });
  if (!found) throw unauthorized('Invalid or revoked operator token');
  return new RequestContext(
    base.dataSource,
    { kind: 'operator', tokenId: found.id, name: found.name },
    null,
    Mode.TEST,
    base.origin,
  );
}
