import http from 'node:http';
import { Duplex } from 'node:stream';
import { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, FieldErrors } from '../domain/shared/errors';
import { ApiError, ApiErrorCode, HttpErrorCode } from './error-codes';
import { httpStatusOf } from './status';

/**
 * A failure as the HTTP faces answer it: the taxonomy's code, its HTTP status, the message and, on
 * VALIDATION_ERROR, the fields. Each face renders it in its own body (REST's envelope, `/v1`'s
 * `{ error }` with its own status table).
 */
export interface HttpFailure {
  code: ApiErrorCode;
  status: number;
  message: string;
  fieldErrors?: FieldErrors;
}

const failure = (code: ApiErrorCode, message: string, fieldErrors?: FieldErrors): HttpFailure => ({
  code,
  status: httpStatusOf[code],
  message,
  ...(fieldErrors ? { fieldErrors } : {}),
});

/** A domain error as the failure a face answers. */
export const failureOfDomain = (error: ApiError): HttpFailure => failure(error.code, error.message, error.fieldErrors);

/** Client-error statuses that Fastify or a plugin may raise, by their code in the taxonomy. */
const CODE_OF_CLIENT_STATUS: Partial<Record<number, ApiErrorCode>> = {
  400: ErrorCode.BAD_REQUEST,
  401: ErrorCode.UNAUTHORIZED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  405: HttpErrorCode.METHOD_NOT_ALLOWED,
  408: HttpErrorCode.REQUEST_TIMEOUT,
  409: ErrorCode.CONFLICT,
  413: HttpErrorCode.PAYLOAD_TOO_LARGE,
  414: HttpErrorCode.URI_TOO_LONG,
  415: HttpErrorCode.UNSUPPORTED_MEDIA_TYPE,
  422: ErrorCode.UNPROCESSABLE,
  429: HttpErrorCode.RATE_LIMITED,
  431: HttpErrorCode.HEADERS_TOO_LARGE,
};

/** Route-schema (Ajv) failures as the per-field errors: `/amount` → `amount`, missing → its name. */
function fieldErrorsOfSchema(error: FastifyError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.validation ?? []) {
    const missing = (issue.params as { missingProperty?: unknown } | undefined)?.missingProperty;
    const pointer = [issue.instancePath, typeof missing === 'string' ? missing : '']
      .join('/')
      .split('/')
      .filter(Boolean)
      .join('.');
    (errors[pointer || '_'] ??= []).push(issue.message ?? 'is invalid');
  }
  return errors;
}

const NOT_JSON = 'Request body is not valid JSON';

/**
 * The one mapper of Fastify's own failures (body parsing, route schemas, limits) onto the taxonomy,
 * for every face that answers JSON; null when the error is not the client's (a 500). A body with
 * another Content-Type is UNSUPPORTED_MEDIA_TYPE (REST answers 415, `/v1` its documented 400
 * `bad_request`). An empty body sent as `application/json` never gets here: registerJsonParser
 * (src/http/input.ts) reads it as no body, for every face; a parser that refused one would be
 * answered as malformed JSON.
 */
export function frameworkFailureOf(error: unknown): HttpFailure | null {
  if (typeof error !== 'object' || error === null) return null;
  const fastifyError = error as FastifyError;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return failure(HttpErrorCode.PAYLOAD_TOO_LARGE, 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return failure(HttpErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Unsupported Content-Type; send application/json');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return failure(ErrorCode.BAD_REQUEST, NOT_JSON);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return failure(ErrorCode.BAD_REQUEST, 'Content-Length does not match the body');
    default:
      break;
  }
  if (Array.isArray(fastifyError.validation))
    return failure(ErrorCode.VALIDATION_ERROR, 'Validation failed', fieldErrorsOfSchema(fastifyError));
  // Only errors that declare a client status are the client's fault; a stray SyntaxError or
  // TypeError thrown by our own code is a 500.
  const status = fastifyError.statusCode ?? 500;
  if (error instanceof SyntaxError && status === 400) return failure(ErrorCode.BAD_REQUEST, NOT_JSON);
  if (status >= 400 && status < 500)
    return failure(CODE_OF_CLIENT_STATUS[status] ?? ErrorCode.BAD_REQUEST, fastifyError.message || 'Bad request');
  return null;
}

/** Longest path parameter (ids, hosted-page tokens) the router matches; longer is 414. */
export const MAX_PARAM_LENGTH = 100;

/**
 * The body of a failure at a path, before any route of a face has seen the request (router
 * failures, requests Node's parser refuses, shutdown): the face's own error body for its paths,
 * else the error envelope. The server's assembly (src/server/app.ts) knows the faces and gives it.
 */
export type FailureBodyAt = (path: string) => (failure: HttpFailure) => unknown;

/**
 * Fastify's `frameworkErrors`: failures of the router before any route runs (a path parameter
 * over MAX_PARAM_LENGTH, percent-encoding that does not decode), in the error body of the path's face.
 */
export function routerErrorsAnsweredBy(bodyAt: FailureBodyAt) {
  return function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
    reply.header('x-request-id', request.id);
    const answer = (refused: HttpFailure) => {
      reply.status(refused.status).send(bodyAt(request.url)(refused));
    };
    if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      answer(failure(HttpErrorCode.URI_TOO_LONG, `A path segment is longer than ${MAX_PARAM_LENGTH} characters`));
      return;
    }
    if (error.code === 'FST_ERR_BAD_URL') {
      answer(failure(ErrorCode.BAD_REQUEST, 'The URL is not valid: it contains percent-encoding that does not decode'));
      return;
    }
    request.log.error({ err: error }, 'router error');
    answer(failure(HttpErrorCode.INTERNAL_ERROR, 'An unexpected error occurred'));
  };
}

/**
 * The path of the request line Node's parser refused, as far as the bytes it kept show it
 * (`rawPacket`, the data being parsed when it failed); empty when they do not.
 */
function requestPathOf(error: NodeJS.ErrnoException): string {
  const raw = (error as { rawPacket?: unknown }).rawPacket;
  if (!Buffer.isBuffer(raw)) return '';
  return /^[A-Z]+ (\S+)/.exec(raw.subarray(0, 512).toString('latin1'))?.[1] ?? '';
}

function clientFailure(error: NodeJS.ErrnoException): HttpFailure {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return failure(HttpErrorCode.HEADERS_TOO_LARGE, 'The request line and headers are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return failure(HttpErrorCode.REQUEST_TIMEOUT, 'The request did not arrive in time');
    default:
      return failure(ErrorCode.BAD_REQUEST, 'Malformed HTTP request');
  }
}

/**
 * Fastify's `clientErrorHandler` (Node's `clientError`): requests Node's HTTP parser refuses
 * before Fastify sees them (oversized headers, a malformed request line or header, a request
 * that never finishes arriving) get the status Node would send, in the error body of the face the
 * request line names (the error envelope when it names none, or when the line is lost).
 */
export function clientErrorsAnsweredBy(bodyAt: FailureBodyAt) {
  return function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Duplex) {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const refused = clientFailure(error);
    this.log.debug({ err: error }, 'client error');
    if (socket.writable) {
      const body = JSON.stringify(bodyAt(requestPathOf(error))(refused));
      socket.write(
        `HTTP/1.1 ${refused.status} ${http.STATUS_CODES[refused.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
