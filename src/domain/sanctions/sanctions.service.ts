import { SANCTIONS_LISTS } from '../../providers/screening/lists/names';
import { SanctionsListRow, SanctionsMatchRow } from '../../providers/screening/lists/sanctions.entities';
import { RequestContext } from '../shared/context';
import { notFound } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { KeysetQuery, ListPage, keysetPage } from '../shared/pagination';

/**
 * The operator's view of sanctions screening (docs/live.md, Sanctions screening): the lists loaded
 * from their official files and the matches live screening recorded. Operator only (an operator
 * token or the CLI's system context): a merchant is FORBIDDEN, and never hears of a match beyond
 * its refusal. Loading stays the CLI's (`tessera sanctions load`).
 */
export class SanctionsService {
  /** Every loaded list, in the order ofac, un, eu (a list never loaded is absent). */
  async lists(ctx: RequestContext): Promise<SanctionsListRow[]> {
    ctx.requirePlatformOperator();
    const rows = await ctx.repo(SanctionsListRow).find();
    return SANCTIONS_LISTS.flatMap((list) => rows.filter((row) => row.list === list));
  }

  /** The recorded matches, newest first, of every business and mode. */
  async matches(ctx: RequestContext, page: KeysetQuery): Promise<ListPage<SanctionsMatchRow>> {
    ctx.requirePlatformOperator();
    const query = ctx
      .repo(SanctionsMatchRow)
      .createQueryBuilder('match')
      .orderBy('match.created_at', 'DESC')
      .addOrderBy('match.id', 'DESC');
    return keysetPage(query, 'match', page, {});
  }

  /** One recorded match; NOT_FOUND for an unknown id (node(id:) for the operator). */
  async match(ctx: RequestContext, id: string): Promise<SanctionsMatchRow> {
    ctx.requirePlatformOperator();
    const match = isUuid(id) ? await ctx.repo(SanctionsMatchRow).findOne({ where: { id } }) : null;
    if (!match) throw notFound('Sanctions match');
    return match;
  }
}
