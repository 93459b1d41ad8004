import { ErrorCode } from '../../domain/shared/errors';
import {
  PayoutSchedule,
  PayoutScheduleRun,
  PayoutsErrorCode,
  scheduleObject,
  scheduleRunObject,
} from '../../domain/payouts';
import { Core } from '../../domain/core';
import { ListPage } from '../../domain/shared/pagination';
import { authenticated } from '../../http/request-context';
import {
  createScheduleBodySchema,
  toCreateScheduleCommand,
  toUpdateScheduleCommand,
  updateScheduleBodySchema,
} from '../../wire/schedules';
import { success } from '../shared/envelope';
import { idParamsSchema, responses } from '../shared/schemas';
import type { RestApp } from '../surface';
import { skipTakeListSchema, skipTakeOf, skipTakeQuerySchema } from './payouts.validators';
import {
  scheduleJson,
  scheduleRunJson,
  scheduleRunSchema,
  scheduleSchema,
  schedulesQuerySchema,
  toScheduleFilters,
} from './schedules.validators';

const SCHEDULES = '/api/v1/business/payouts/schedules';
const byId = { params: idParamsSchema };

const listOf = <T, J>(page: ListPage<T>, query: { skip: number; take: number }, json: (item: T) => J) => ({
  items: page.items.map(json),
  total: page.total ?? page.items.length,
  skip: query.skip,
  take: query.take,
});

const scheduleOut = (schedule: PayoutSchedule) => scheduleJson(scheduleObject(schedule));
const runOut = (run: PayoutScheduleRun) => scheduleRunJson(scheduleRunObject(run));

/** Scheduled payouts (design section 8; interface document, Schedule and List scheduled payouts). */
export function scheduleRoutes(app: RestApp, core: Core) {
  const { payoutSchedules: schedules } = core;
  const one = { schema: { ...byId, response: responses({ 200: scheduleSchema }) } };

  app.post(
    SCHEDULES,
    {
      schema: {
        body: createScheduleBodySchema,
        response: responses({ 201: scheduleSchema }, [
          PayoutsErrorCode.INVALID_PIN,
          PayoutsErrorCode.PIN_LOCKED,
          PayoutsErrorCode.PIN_NOT_SET,
          PayoutsErrorCode.SANCTIONS_MATCH,
          ErrorCode.UNSUPPORTED_CURRENCY,
        ]),
      },
    },
    async (request, reply) => {
      const schedule = await schedules.create(authenticated(request), toCreateScheduleCommand(request.body));
      reply.status(201);
      return success(scheduleOut(schedule));
    },
  );

  app.get(
    SCHEDULES,
    { schema: { querystring: schedulesQuerySchema, response: responses({ 200: skipTakeListSchema(scheduleSchema) }) } },
    async (request) => {
      const page = skipTakeOf(request.query);
      return success(
        listOf(await schedules.list(authenticated(request), toScheduleFilters(request.query), page), page, scheduleOut),
      );
    },
  );

  app.get(`${SCHEDULES}/:id`, one, async (request) =>
    success(scheduleOut(await schedules.get(authenticated(request), request.params.id))),
  );

  app.patch(
    `${SCHEDULES}/:id`,
    {
      schema: {
        ...byId,
        body: updateScheduleBodySchema,
        response: responses({ 200: scheduleSchema }, [
          PayoutsErrorCode.INVALID_PIN,
          PayoutsErrorCode.PIN_LOCKED,
          PayoutsErrorCode.PIN_NOT_SET,
          PayoutsErrorCode.SANCTIONS_MATCH,
          ErrorCode.UNSUPPORTED_CURRENCY,
        ]),
      },
    },
    async (request) =>
      success(
        scheduleOut(
          await schedules.update(authenticated(request), toUpdateScheduleCommand(request.params.id, request.body)),
        ),
      ),
  );

  app.post(`${SCHEDULES}/:id/pause`, one, async (request) =>
    success(scheduleOut(await schedules.pause(authenticated(request), request.params.id))),
  );
  app.post(`${SCHEDULES}/:id/resume`, one, async (request) =>
    success(scheduleOut(await schedules.resume(authenticated(request), request.params.id))),
  );
  app.post(`${SCHEDULES}/:id/cancel`, one, async (request) =>
    success(scheduleOut(await schedules.cancel(authenticated(request), request.params.id))),
  );

  app.get(
    `${SCHEDULES}/:id/runs`,
    {
      schema: {
        ...byId,
        querystring: skipTakeQuerySchema,
        response: responses({ 200: skipTakeListSchema(scheduleRunSchema) }),
      },
    },
    async (request) => {
      const page = skipTakeOf(request.query);
      return success(listOf(await schedules.runs(authenticated(request), request.params.id, page), page, runOut));
    },
  );
}
