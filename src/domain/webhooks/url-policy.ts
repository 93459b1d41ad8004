import dns from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export type HostResolver = (hostname: string) => Promise<string[]>;

const resolveAll: HostResolver = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Why a webhook URL may not receive live events, or null when it may. Live URLs must be https and
 * must not resolve to loopback, private, link-local (cloud metadata), carrier-grade NAT or any other
 * non-public address; checked when the URL is registered and again before every delivery, so a DNS
 * change cannot turn an accepted URL against the internal network. Sandbox URLs may be plain http
 * and local, so developers can receive test events on their laptop. A host that does not resolve
 * right now is not proof of a private address: it is accepted, and delivery fails until it resolves.
 */
export async function liveUrlRefusal(url: string, resolve: HostResolver = resolveAll): Promise<string | null> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') return 'must use https with live credentials';
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      return null;
    }
  }
  for (const address of addresses) {
    const range = ipaddr.process(address).range();
    if (range !== 'unicast') {
      return `must be publicly reachable: ${host} resolves to ${address} (${range})`;
    }
  }
  return null;
}
