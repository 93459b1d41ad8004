import { ErrorCode } from '../../domain/shared/errors';
import { z } from 'zod';
import { Core } from '../../domain/core';
import { BlocklistEntry, FraudRule, FraudRuleType } from '../../domain/fraud';
import { toMajor } from '../../domain/shared/money';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';
import { offsetPageQuery } from '../shared/pagination';
import { deletedSchema, idParamsSchema, responses } from '../shared/schemas';
import type { RestApp } from '../surface';
import {
  blocklistBodySchema,
  createRuleBodySchema,
  toAddBlocklistEntryCommand,
  toCreateRuleCommand,
  toUpdateRuleCommand,
  updateRuleBodySchema,
} from '../../wire/fraud';
import {
  blocklistEntrySchema,
  blocklistPageSchema,
  blocklistQuerySchema,
  fraudRuleListSchema,
  fraudRuleSchema,
  toBlocklistFilters,
} from './fraud.validators';

type FraudRuleJson = z.input<typeof fraudRuleSchema>;

/** The parameters of a rule, named as its type takes them on create. */
const parametersOf = (rule: FraudRule): Partial<FraudRuleJson> => {
  switch (rule.type) {
    case FraudRuleType.CARD_COUNTRY:
      return { countries: rule.values };
    case FraudRuleType.CARD_BIN:
      return { bins: rule.values };
    case FraudRuleType.EMAIL_DOMAIN:
      return { domains: rule.values };
    case FraudRuleType.AMOUNT_ABOVE:
      return {
        amount: toMajor(rule.amount!, rule.currency!),
        amountMinor: rule.amount!.toString(),
        currency: rule.currency!.toLowerCase(),
      };
    case FraudRuleType.VELOCITY_CARD:
      return { maxAttemptsPerHour: rule.maxAttemptsPerHour! };
    default:
      return {};
  }
};

export const fraudRuleJson = (rule: FraudRule): FraudRuleJson => ({
  id: rule.id,
  object: 'fraud_rule',
  type: rule.type,
  enabled: rule.enabled,
  ...parametersOf(rule),
  description: rule.description,
  livemode: rule.livemode,
  createdAt: rule.createdAt.toISOString(),
  updatedAt: rule.updatedAt.toISOString(),
});

export const blocklistEntryJson = (entry: BlocklistEntry): z.input<typeof blocklistEntrySchema> => ({
  id: entry.id,
  object: 'blocklist_entry',
  type: entry.type,
  value: entry.value,
  description: entry.description,
  livemode: entry.livemode,
  createdAt: entry.createdAt.toISOString(),
});

const byId = { params: idParamsSchema };

/** Fraud rules and the block list of the business and mode. */
export function fraudRoutes(app: RestApp, core: Core) {
  const { fraud } = core;

  app.post(
    '/api/v1/business/fraud/rules',
    {
      schema: {
        body: createRuleBodySchema,
        response: responses({ 201: fraudRuleSchema }, [ErrorCode.UNSUPPORTED_CURRENCY]),
      },
    },
    async (request, reply) => {
      const rule = await fraud.createRule(authenticated(request), toCreateRuleCommand(request.body));
      reply.status(201);
      return success(fraudRuleJson(rule));
    },
  );

  app.get(
    '/api/v1/business/fraud/rules',
    { schema: { response: responses({ 200: fraudRuleListSchema }) } },
    async (request) => {
      const rules = await fraud.listRules(authenticated(request));
      return success({ items: rules.map(fraudRuleJson), total: rules.length });
    },
  );

  app.get(
    '/api/v1/business/fraud/rules/:id',
    { schema: { ...byId, response: responses({ 200: fraudRuleSchema }) } },
    async (request) => success(fraudRuleJson(await fraud.getRule(authenticated(request), request.params.id))),
  );

  app.patch(
    '/api/v1/business/fraud/rules/:id',
    {
      schema: {
        ...byId,
        body: updateRuleBodySchema,
        response: responses({ 200: fraudRuleSchema }, [ErrorCode.UNSUPPORTED_CURRENCY]),
      },
    },
    async (request) =>
      success(
        fraudRuleJson(
          await fraud.updateRule(authenticated(request), toUpdateRuleCommand(request.params.id, request.body)),
        ),
      ),
  );

  app.delete(
    '/api/v1/business/fraud/rules/:id',
    { schema: { ...byId, response: responses({ 200: deletedSchema('fraud_rule') }) } },
    async (request) => {
      const rule = await fraud.deleteRule(authenticated(request), request.params.id);
      return success({ id: rule.id, object: 'fraud_rule' as const, deleted: true as const });
    },
  );

  app.post(
    '/api/v1/business/fraud/blocklist',
    { schema: { body: blocklistBodySchema, response: responses({ 201: blocklistEntrySchema }) } },
    async (request, reply) => {
      const entry = await fraud.addToBlocklist(authenticated(request), toAddBlocklistEntryCommand(request.body));
      reply.status(201);
      return success(blocklistEntryJson(entry));
    },
  );

  app.get(
    '/api/v1/business/fraud/blocklist',
    { schema: { querystring: blocklistQuerySchema, response: responses({ 200: blocklistPageSchema }) } },
    async (request) => {
      const page = offsetPageQuery(request.query);
      const list = await fraud.listBlocklist(authenticated(request), toBlocklistFilters(request.query), page);
      return success({
        items: list.items.map(blocklistEntryJson),
        total: list.total!,
        page: page.page,
        limit: page.limit,
      });
    },
  );

  app.get(
    '/api/v1/business/fraud/blocklist/:id',
    { schema: { ...byId, response: responses({ 200: blocklistEntrySchema }) } },
    async (request) =>
      success(blocklistEntryJson(await fraud.getBlocklistEntry(authenticated(request), request.params.id))),
  );

  app.delete(
    '/api/v1/business/fraud/blocklist/:id',
    { schema: { ...byId, response: responses({ 200: deletedSchema('blocklist_entry') }) } },
    async (request) => {
      const entry = await fraud.removeFromBlocklist(authenticated(request), request.params.id);
      return success({ id: entry.id, object: 'blocklist_entry' as const, deleted: true as const });
    },
  );
}
