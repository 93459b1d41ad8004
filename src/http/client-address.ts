import { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { TrustProxy } from '../config';

type TrustFunction = (address: string, hop: number) => boolean;

/**
 * Which peers may name the client in X-Forwarded-For (TRUST_PROXY), as a proxy-addr trust function:
 * the one Fastify applies to HTTP requests and the GraphQL socket applies to its upgrade request,
 * so both see the same client address.
 */
export function trustFunctionOf(trustProxy: TrustProxy): TrustFunction {
  if (trustProxy === true) return () => true;
  if (trustProxy === false) return () => false;
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy; // the nearest `hops` proxies
  return proxyAddr.compile(trustProxy);
}

/** The client's address of a raw request (a WebSocket upgrade), as Fastify's `request.ip` is for HTTP. */
export function clientAddressOf(request: IncomingMessage, trust: TrustFunction): string {
  const addresses = proxyAddr.all(request, trust);
  return addresses[addresses.length - 1] ?? request.socket.remoteAddress ?? 'unknown';
}
