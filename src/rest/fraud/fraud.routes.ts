import { FastifyInstance } from 'fastify';
import { Core } from '../../domain/core';
import { BlocklistEntry, FraudRule, FraudRuleType } from '../../domain/fraud/fraud.entities';
import { toMajor } from '../../domain/shared/money';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';

/** The parameters of a rule, named as its type takes them on create. */
const parametersOf = (rule: FraudRule) => {
  switch (rule.type) {
    case FraudRuleType.CARD_COUNTRY: return { countries: rule.values };
    case FraudRuleType.CARD_BIN: return { bins: rule.values };
    case FraudRuleType.EMAIL_DOMAIN: return { domains: rule.values };
    case FraudRuleType.AMOUNT_ABOVE:
      return { amount: toMajor(rule.amount!, rule.currency!), amountMinor: rule.amount!.toString(), currency: rule.currency!.toLowerCase() };
    case FraudRuleType.VELOCITY_CARD: return { maxAttemptsPerHour: rule.maxAttemptsPerHour };
    default: return {};
  }
};

export const fraudRuleJson = (rule: FraudRule) => ({
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

export const blocklistEntryJson = (entry: BlocklistEntry) => ({
  id: entry.id,
  object: 'blocklist_entry',
  type: entry.type,
  value: entry.value,
  description: entry.description,
  livemode: entry.livemode,
  createdAt: entry.createdAt.toISOString(),
});

type ById = { Params: { id: string } };

/** Fraud rules and the block list of the business and mode. */
export function fraudRoutes(app: FastifyInstance, core: Core) {
  const { fraud } = core;

  app.post('/api/v1/business/fraud/rules', async (request, reply) => {
    const rule = await fraud.createRule(authenticated(request), request.body);
    reply.status(201);
    return success(fraudRuleJson(rule));
  });

  app.get('/api/v1/business/fraud/rules', async (request) => {
    const rules = await fraud.listRules(authenticated(request));
    return success({ items: rules.map(fraudRuleJson), total: rules.length });
  });

  app.get<ById>('/api/v1/business/fraud/rules/:id', async (request) =>
    success(fraudRuleJson(await fraud.getRule(authenticated(request), request.params.id))));

  app.patch<ById>('/api/v1/business/fraud/rules/:id', async (request) =>
    success(fraudRuleJson(await fraud.updateRule(authenticated(request), request.params.id, request.body))));

  app.delete<ById>('/api/v1/business/fraud/rules/:id', async (request) => {
    const rule = await fraud.deleteRule(authenticated(request), request.params.id);
    return success({ id: rule.id, object: 'fraud_rule', deleted: true });
  });

  app.post('/api/v1/business/fraud/blocklist', async (request, reply) => {
    const entry = await fraud.addToBlocklist(authenticated(request), request.body);
    reply.status(201);
    return success(blocklistEntryJson(entry));
  });

  app.get<{ Querystring: Record<string, string> }>('/api/v1/business/fraud/blocklist', async (request) => {
    const page = await fraud.blocklistPage(authenticated(request), request.query);
    return success({ items: page.items.map(blocklistEntryJson), total: page.total, page: page.page, limit: page.limit });
  });

  app.get<ById>('/api/v1/business/fraud/blocklist/:id', async (request) =>
    success(blocklistEntryJson(await fraud.getBlocklistEntry(authenticated(request), request.params.id))));

  app.delete<ById>('/api/v1/business/fraud/blocklist/:id', async (request) => {
    const entry = await fraud.removeFromBlocklist(authenticated(request), request.params.id);
    return success({ id: entry.id, object: 'blocklist_entry', deleted: true });
  });
}
