import http from 'node:http';
import { Duplex } from 'node:stream';
import { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../domain/shared/errors';
import { errorEnvelope } from '../rest/shared/envelope';
import { v1ErrorBody } from '../v1/errors';

/** Longest path parameter (ids, hosted-page tokens) the router matches; longer is 414. */
export const MAX_PARAM_LENGTH = 100;

/**
 * Fastify's `frameworkErrors`: failures of the router before any route runs (a path parameter
 * over MAX_PARAM_LENGTH, percent-encoding that does not decode), in the error envelope like every
 * other failure (under `/v1`, in that surface's error body).
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  const body = isV1Path(request.url) ? v1ErrorBody : errorEnvelope;
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.status(414).send(body(ErrorCode.URI_TOO_LONG, `A path segment is longer than ${MAX_PARAM_LENGTH} characters`));
    return;
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    reply.status(400).send(body(ErrorCode.BAD_REQUEST, 'The URL is not valid: it contains percent-encoding that does not decode'));
    return;
  }
  request.log.error({ err: error }, 'router error');
  reply.status(500).send(body(ErrorCode.INTERNAL_ERROR, 'An unexpected error occurred'));
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

/** A path of the alternate surface `/v1`, whose failures have its own body (not `/v1/business/…`, the main surface's documented alias). */
export const isV1Path = (url: string) => /^\/v1(\/|\?|$)/.test(url) && !url.startsWith('/v1/business/');

function clientFailure(error: NodeJS.ErrnoException): [number, ErrorCode, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, ErrorCode.HEADERS_TOO_LARGE, 'The request line and headers are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, ErrorCode.REQUEST_TIMEOUT, 'The request did not arrive in time'];
    default:
      return [400, ErrorCode.BAD_REQUEST, 'Malformed HTTP request'];
  }
}

/**
 * Fastify's `clientErrorHandler` (Node's `clientError`): requests Node's HTTP parser refuses
 * before Fastify sees them (oversized headers, a malformed request line or header, a request
 * that never finishes arriving) get the status Node would send, with the error envelope as body
 * (the `/v1` body when the request line names a `/v1` path).
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Duplex) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = clientFailure(error);
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(isV1Path(requestPathOf(error)) ? v1ErrorBody(code, message) : errorEnvelope(code, message));
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n`
      + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
