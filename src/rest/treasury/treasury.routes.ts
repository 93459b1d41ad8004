import { ErrorCode } from '../../domain/shared/errors';
import { LedgerErrorCode } from '../../domain/ledger';
import {
  depositInstructionsObject,
  depositObject,
  endUserObject,
  kycObject,
  TreasuryAccess,
  TreasuryEndUser,
  TreasuryErrorCode,
  TreasuryPayout,
  treasuryPayoutObject,
  TreasuryWalletView,
  walletObject,
} from '../../domain/treasury';
import { FastifyRequest } from 'fastify';
import { Core } from '../../domain/core';
import { ListPage } from '../../domain/shared/pagination';
import { authenticated } from '../../http/request-context';
import {
  createEndUserBodySchema,
  createTreasuryPayoutBodySchema,
  createTreasuryWalletBodySchema,
  endUsersQuerySchema,
  rejectKycBodySchema,
  sandboxDepositBodySchema,
  startKycBodySchema,
  toCreateEndUserCommand,
  toCreateTreasuryPayoutCommand,
  toCreateTreasuryWalletCommand,
  toRejectKycCommand,
  toSandboxDepositCommand,
  toStartKycCommand,
  treasuryListQuerySchema,
  treasuryPayoutsQuerySchema,
} from '../../wire/treasury';
import { skipTakeListSchema, skipTakeOf } from '../payouts/payouts.validators';
import { success } from '../shared/envelope';
import { idParamsSchema, responses } from '../shared/schemas';
import type { RestApp } from '../surface';
import {
  depositInstructionsJson,
  depositInstructionsSchema,
  depositJson,
  depositSchema,
  endUserJson,
  endUserSchema,
  kycJson,
  kycSchema,
  toEndUserFilters,
  toTreasuryPayoutFilters,
  treasuryPayoutJson,
  treasuryPayoutSchema,
  walletJson,
  walletParamsSchema,
  walletSchema,
} from './treasury.validators';

const TREASURY = '/api/v1/treasury';
const USER = `${TREASURY}/users/:id`;
const WALLET = `${USER}/wallets/:walletId`;
const byId = { params: idParamsSchema };
const byWallet = { params: walletParamsSchema };

const endUserOut = (user: TreasuryEndUser) => endUserJson(endUserObject(user));
const walletOut = (view: TreasuryWalletView) => walletJson(walletObject(view));
const payoutOut = (payout: TreasuryPayout) => treasuryPayoutJson(treasuryPayoutObject(payout));

/** `{ items, total, skip, take }` of a page. */
const listOf = <T, J>(page: ListPage<T>, query: { skip: number; take: number }, json: (item: T) => J) => ({
  items: page.items.map(json),
  total: page.total ?? page.items.length,
  skip: query.skip,
  take: query.take,
});

/** Treasury for partners (design section 10): end-users, KYC, wallets, deposit instructions, payouts and the sandbox helpers. */
export function treasuryRoutes(app: RestApp, core: Core) {
  const { treasuryEndUsers: endUsers, treasuryKyc: kyc, treasuryWallets: wallets, treasuryPayouts: payouts } = core;
  /** Role, partner and (sandbox helpers) test credentials are refused before the input is read: 403 before 400. */
  const first = (access: TreasuryAccess) => ({
    preValidation: async (request: FastifyRequest) => endUsers.assertAccess(authenticated(request), access),
  });

  app.post(
    `${TREASURY}/users`,
    { ...first('write'), schema: { body: createEndUserBodySchema, response: responses({ 201: endUserSchema }) } },
    async (request, reply) => {
      const user = await endUsers.create(authenticated(request), toCreateEndUserCommand(request.body));
      reply.status(201);
      return success(endUserOut(user));
    },
  );

  app.get(
    `${TREASURY}/users`,
    {
      ...first('read'),
      schema: { querystring: endUsersQuerySchema, response: responses({ 200: skipTakeListSchema(endUserSchema) }) },
    },
    async (request) => {
      const page = skipTakeOf(request.query);
      return success(
        listOf(await endUsers.list(authenticated(request), toEndUserFilters(request.query), page), page, endUserOut),
      );
    },
  );

  app.get(USER, { schema: { ...byId, response: responses({ 200: endUserSchema }) } }, async (request) =>
    success(endUserOut(await endUsers.get(authenticated(request), request.params.id))),
  );

  app.post(
    `${USER}/kyc`,
    {
      ...first('write'),
      schema: { ...byId, body: startKycBodySchema.optional(), response: responses({ 200: kycSchema, 201: kycSchema }) },
    },
    async (request, reply) => {
      const { check, created } = await kyc.start(
        authenticated(request),
        toStartKycCommand(request.params.id, request.body),
      );
      reply.status(created ? 201 : 200);
      return success(kycJson(kycObject(check)));
    },
  );

  app.get(`${USER}/kyc`, { schema: { ...byId, response: responses({ 200: kycSchema }) } }, async (request) =>
    success(kycJson(kycObject(await kyc.get(authenticated(request), request.params.id)))),
  );

  app.post(
    `${USER}/kyc/sandbox-approve`,
    { ...first('sandbox'), schema: { ...byId, response: responses({ 200: kycSchema }, [ErrorCode.SANDBOX_ONLY]) } },
    async (request) => success(kycJson(kycObject(await kyc.sandboxApprove(authenticated(request), request.params.id)))),
  );

  app.post(
    `${USER}/kyc/sandbox-reject`,
    {
      ...first('sandbox'),
      schema: { ...byId, body: rejectKycBodySchema, response: responses({ 200: kycSchema }, [ErrorCode.SANDBOX_ONLY]) },
    },
    async (request) =>
      success(
        kycJson(
          kycObject(
            await kyc.sandboxReject(authenticated(request), toRejectKycCommand(request.params.id, request.body)),
          ),
        ),
      ),
  );

  app.post(
    `${USER}/wallets`,
    {
      ...first('write'),
      schema: {
        ...byId,
        body: createTreasuryWalletBodySchema,
        response: responses({ 201: walletSchema }, [TreasuryErrorCode.KYC_REQUIRED, ErrorCode.UNSUPPORTED_CURRENCY]),
      },
    },
    async (request, reply) => {
      const wallet = await wallets.create(
        authenticated(request),
        toCreateTreasuryWalletCommand(request.params.id, request.body),
      );
      reply.status(201);
      return success(walletOut(wallet));
    },
  );

  app.get(
    `${USER}/wallets`,
    {
      ...first('read'),
      schema: {
        ...byId,
        querystring: treasuryListQuerySchema,
        response: responses({ 200: skipTakeListSchema(walletSchema) }),
      },
    },
    async (request) => {
      const page = skipTakeOf(request.query);
      return success(
        listOf(await wallets.list(authenticated(request), { endUserId: request.params.id }, page), page, walletOut),
      );
    },
  );

  app.get(WALLET, { schema: { ...byWallet, response: responses({ 200: walletSchema }) } }, async (request) =>
    success(
      walletOut(
        await wallets.get(authenticated(request), { endUserId: request.params.id, walletId: request.params.walletId }),
      ),
    ),
  );

  app.get(
    `${WALLET}/deposit_instructions`,
    { schema: { ...byWallet, response: responses({ 200: depositInstructionsSchema }) } },
    async (request) =>
      success(
        depositInstructionsJson(
          depositInstructionsObject(
            await wallets.depositInstructions(authenticated(request), {
              endUserId: request.params.id,
              walletId: request.params.walletId,
            }),
          ),
        ),
      ),
  );

  app.post(
    `${TREASURY}/sandbox/users/:id/wallets/:walletId/deposit`,
    {
      ...first('sandbox'),
      schema: {
        ...byWallet,
        body: sandboxDepositBodySchema,
        response: responses({ 201: depositSchema }, [ErrorCode.SANDBOX_ONLY]),
      },
    },
    async (request, reply) => {
      const deposit = await wallets.sandboxDeposit(
        authenticated(request),
        toSandboxDepositCommand(request.params.id, request.params.walletId, request.body),
      );
      reply.status(201);
      return success(depositJson(depositObject(deposit)));
    },
  );

  app.post(
    `${TREASURY}/payouts`,
    {
      ...first('write'),
      schema: {
        body: createTreasuryPayoutBodySchema,
        response: responses({ 201: treasuryPayoutSchema }, [
          LedgerErrorCode.INSUFFICIENT_FUNDS,
          TreasuryErrorCode.KYC_REQUIRED,
          ErrorCode.UNSUPPORTED_CURRENCY,
        ]),
      },
    },
    async (request, reply) => {
      const payout = await payouts.create(authenticated(request), toCreateTreasuryPayoutCommand(request.body));
      reply.status(201);
      return success(payoutOut(payout));
    },
  );

  app.get(
    `${TREASURY}/payouts`,
    {
      ...first('read'),
      schema: {
        querystring: treasuryPayoutsQuerySchema,
        response: responses({ 200: skipTakeListSchema(treasuryPayoutSchema) }),
      },
    },
    async (request) => {
      const page = skipTakeOf(request.query);
      return success(
        listOf(
          await payouts.list(authenticated(request), toTreasuryPayoutFilters(request.query), page),
          page,
          payoutOut,
        ),
      );
    },
  );

  app.get(
    `${TREASURY}/payouts/:id`,
    { schema: { ...byId, response: responses({ 200: treasuryPayoutSchema }) } },
    async (request) => success(payoutOut(await payouts.get(authenticated(request), request.params.id))),
  );

  app.post(
    `${TREASURY}/payouts/:id/cancel`,
    { schema: { ...byId, response: responses({ 200: treasuryPayoutSchema }) } },
    async (request) => success(payoutOut(await payouts.cancel(authenticated(request), request.params.id))),
  );
}
