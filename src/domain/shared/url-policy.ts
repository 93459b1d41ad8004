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

/**
 * A host in the one form every check judges: without IPv6 brackets and trailing dots (`localhost.`
 * is `localhost`), in lower case, and an IPv4 address in dotted decimal whatever its spelling. The
 * WHATWG URL parser has already turned an IDN into punycode (and full-width letters into ASCII) and
 * decimal, octal, hex and short IPv4 forms of a URL into dotted decimal; a bare host name (the
 * connection's lookup) gets the same here.
 */
export function normalisedHost(hostname: string): string {
  const host = hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.+$/, '');
  return ipaddr.IPv4.isValid(host) ? ipaddr.IPv4.parse(host).toString() : host;
}

/** The normalised host of a URL: what registration and every delivery attempt check. */
export const targetHostOf = (url: string) => normalisedHost(new URL(url).hostname);

/** `localhost` and every name under it are loopback (RFC 6761), whatever a resolver answers or fails to. */
const LOOPBACK_NAME = /(^|\.)localhost$/;

/** An IP literal is its own address, a localhost name is loopback, another host name is resolved. */
function addressesOf(host: string, resolve: HostResolver): Promise<string[]> {
  if (ipaddr.isValid(host)) return Promise.resolve([host]);
  if (LOOPBACK_NAME.test(host)) return Promise.resolve(['127.0.0.1', '::1']);
  return resolve(host);
}

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
  return publicUrlRefusal(url, resolve);
}

/**
 * Why a URL may not receive webhooks when only public targets are allowed (any scheme), or null:
 * the test-mode check of a deployment that refuses private targets, and liveUrlRefusal's after its
 * https rule. A host that does not resolve right now is not proof of a private address: it is
 * accepted, and its delivery's connection (publicAddressLookup) refuses it if it resolves to one by then.
 */
export async function publicUrlRefusal(url: string, resolve: HostResolver = resolveAll): Promise<string | null> {
  const host = targetHostOf(url);
  try {
    return refusalOf(host, await addressesOf(host, resolve));
  } catch {
    return null;
  }
}

export interface WebhookTargetSettings {
  /**
   * Test-mode webhooks may go to private, loopback and link-local addresses (a developer's own
   * machine). On by default outside production (WEBHOOK_ALLOW_PRIVATE_TARGETS); live mode never.
   */
  allowPrivateTestTargets: boolean;
  /** How host names are resolved (the system resolver by default; tests inject one). */
  resolveHost?: HostResolver;
}

/**
 * Which URLs may receive webhooks, decided once for registration (webhookUrl, endpoints) and again
 * before every delivery. Live mode: https and public addresses only. Test mode: any http(s) URL,
 * and private addresses only where the deployment allows them; a private target's answer is then
 * reduced to its status (see isPrivateTarget), so webhooks cannot read internal services.
 */
export class WebhookTargetPolicy {
  constructor(private readonly settings: WebhookTargetSettings) {}

  get resolveHost(): HostResolver {
    return this.settings.resolveHost ?? resolveAll;
  }

  /** True when test-mode deliveries may reach private addresses (then they skip the public-only connection). */
  allowsPrivateTargets(livemode: boolean): boolean {
    return !livemode && this.settings.allowPrivateTestTargets;
  }

  /** Why the URL may not receive webhooks of the mode, or null when it may. */
  async refusal(url: string, livemode: boolean): Promise<string | null> {
    if (livemode) return liveUrlRefusal(url, this.resolveHost);
    if (this.settings.allowPrivateTestTargets) return null;
    const refusal = await publicUrlRefusal(url, this.resolveHost);
    return refusal ? `${refusal}; this server does not send webhooks to private addresses` : null;
  }

  /**
   * Whether the URL's host is (or resolves to) any non-public address. A host that does not resolve
   * counts as public: its connection is then made through publicAddressLookup, which refuses it if
   * it resolves to a private address by then.
   */
  async isPrivateTarget(url: string): Promise<boolean> {
    try {
      return (await addressesOf(targetHostOf(url), this.resolveHost)).some(
        (address) => nonPublicRange(address) !== null,
      );
    } catch {
      return false;
    }
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
    const host = normalisedHost(hostname);
    addressesOf(host, resolve).then(
      (resolved) => {
        const refusal = refusalOf(host, resolved);
        if (refusal) {
          callback(new NonPublicAddressError(refusal), '', 4);
          return;
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : null;
        const addresses = resolved.filter((address) => wanted === null || familyOf(address) === wanted);
        if (addresses.length === 0) {
          callback(
            Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }),
            '',
            4,
          );
        } else if (options.all) {
          callback(
            null,
            addresses.map((address) => ({ address, family: familyOf(address) })),
          );
        } else {
          callback(null, addresses[0], familyOf(addresses[0]));
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}
