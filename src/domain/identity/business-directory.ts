import { In } from 'typeorm';
import { ApiCredential, Business, Membership } from './identity.entities';
import { BusinessSettings } from '../shared/business-settings.entity';
import { Mode, Role } from '../shared/modes';
import { RequestContext } from '../shared/context';
import { notFound } from '../shared/errors';
import { isUuid } from '../shared/ids';

/** A business as the operator's list shows it. */
export interface BusinessListing {
  business: Business;
  /** Emails of its OWNER members, earliest first. */
  owners: string[];
  /** The modes it has API credentials for. */
  modes: Mode[];
}

/** One business as the operator sees it: never a secret; its credentials by their hints. */
export interface BusinessRecord extends BusinessListing {
  settings: BusinessSettings[];
  credentials: ApiCredential[];
}

/**
 * What the operator reads of the businesses (`business list`, `business show`). Needs nothing but
 * the database, so a read opens no more than that.
 */
export class BusinessDirectory {
  /** Every business, oldest first. */
  async list(ctx: RequestContext): Promise<BusinessListing[]> {
    ctx.requireOperator();
    const businesses = await ctx.repo(Business).find({ order: { createdAt: 'ASC', id: 'ASC' } });
    return this.withOwnersAndModes(ctx, businesses, await this.credentialsOf(ctx, businesses));
  }

  /** The context's business; NOT_FOUND when there is none. */
  async show(ctx: RequestContext): Promise<BusinessRecord> {
    ctx.requireOperator();
    const businessId = ctx.requireBusiness();
    const business = isUuid(businessId) ? await ctx.repo(Business).findOne({ where: { id: businessId } }) : null;
    if (!business) throw notFound('Business');
    const credentials = await this.credentialsOf(ctx, [business]);
    const [listing] = await this.withOwnersAndModes(ctx, [business], credentials);
    return { ...listing, settings: await this.settings(ctx), credentials };
  }

  /** Both modes' settings of the context's business, test first (`business show`, and `business update`'s answer). */
  async settings(ctx: RequestContext): Promise<BusinessSettings[]> {
    ctx.requireOperator();
    return ctx
      .repo(BusinessSettings)
      .find({ where: { businessId: ctx.requireBusiness() }, order: { livemode: 'ASC' } });
  }

  private async credentialsOf(ctx: RequestContext, businesses: Business[]): Promise<ApiCredential[]> {
    if (businesses.length === 0) return [];
    return ctx
      .repo(ApiCredential)
      .find({ where: { businessId: In(businesses.map(({ id }) => id)) }, order: { livemode: 'ASC' } });
  }

  private async withOwnersAndModes(
    ctx: RequestContext,
    businesses: Business[],
    credentials: ApiCredential[],
  ): Promise<BusinessListing[]> {
    const owners =
      businesses.length === 0
        ? []
        : await ctx.repo(Membership).find({
            where: { businessId: In(businesses.map(({ id }) => id)), role: Role.OWNER },
            relations: { user: true },
            order: { createdAt: 'ASC' },
          });
    const ownersOf = groupBy(owners, (member) => member.businessId);
    const credentialsOf = groupBy(credentials, (credential) => credential.businessId);
    return businesses.map((business) => ({
      business,
      owners: (ownersOf.get(business.id) ?? []).map((member) => member.user!.email),
      modes: (credentialsOf.get(business.id) ?? []).map((credential) => (credential.livemode ? Mode.LIVE : Mode.TEST)),
    }));
  }
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}
