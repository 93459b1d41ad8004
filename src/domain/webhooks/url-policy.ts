import dns from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export type HostResolver = (hostname: string) => Promise<string[]>;

const resolveAll: HostResolver = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * The range of an address that may not receive live webhooks (`loopback`, `private`, `linkLocal`
 * — cloud metadata —, `carrierGradeNat`, `uniqueLocal`, `unspecified`, …), or null for a public
 * unicast address. IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export function nonPublicRange(address: string): string | null {
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? null : range;
}

/** An IP literal is its own address; a host name is resolved. */
const addressesOf = (host: string, resolve: HostResolver) => (ipaddr.isValid(host) ? Promise.resolve([host]) : resolve(host));

/** Why a host with these addresses may not receive live webhooks, or null when every address is public. */
function refusalOf(host: string, addresses: string[]): string | null {
  for (const address of addresses) {
    const range = nonPublicRange(address);
    if (range) return `must be publicly reachable: ${host} resolves to ${address} (${range})`;
  }
  return null;
}

/**
 * Why a webhook URL may not receive live events, or null when it may. Live URLs must be https and
 * must not resolve to a non-public address (nonPublicRange); checked when the URL is registered and
 * again before every delivery, whose connection is then pinned to checked addresses
 * (publicAddressLookup). Sandbox URLs may be plain http and local, so developers can receive test
 * events on their laptop. A host that does not resolve right now is not proof of a private
 * address: it is accepted, and delivery fails until it resolves.
 */
export async function liveUrlRefusal(url: string, resolve: HostResolver = resolveAll): Promise<string | null> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') return 'must use https with live credentials';
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  try {
    return refusalOf(host, await addressesOf(host, resolve));
  } catch {
    return null;
  }
}

/** A live delivery's connection refused because its host resolved to a non-public address. */
export class NonPublicAddressError extends Error {
  readonly code = 'ENONPUBLIC';
}

const familyOf = (address: string) => (ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4);

/**
 * The `lookup` of a live delivery's connection (net/tls `connect`): resolves the host once, refuses
 * the connection when any address is not public, and hands the socket exactly the addresses it
 * checked. The address checked is the address connected to, so a DNS answer that changes between
 * liveUrlRefusal and the connection (DNS rebinding) cannot reach the internal network. IP literals
 * never reach a lookup; liveUrlRefusal judges those before the request.
 */
export function publicAddressLookup(resolve: HostResolver = resolveAll): LookupFunction {
  return (hostname, options, callback) => {
    addressesOf(hostname, resolve).then((resolved) => {
      const refusal = refusalOf(hostname, resolved);
      if (refusal) {
        callback(new NonPublicAddressError(refusal), '', 4);
        return;
      }
      const wanted = options.family === 4 || options.family === 6 ? options.family : null;
      const addresses = resolved.filter((address) => wanted === null || familyOf(address) === wanted);
      if (addresses.length === 0) {
        callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), '', 4);
      } else if (options.all) {
        callback(null, addresses.map((address) => ({ address, family: familyOf(address) })));
      } else {
        callback(null, addresses[0], familyOf(addresses[0]));
      }
    }, (error: NodeJS.ErrnoException) => callback(error, '', 4));
  };
}
