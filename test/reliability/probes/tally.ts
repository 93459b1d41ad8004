import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { TestServer } from '../../support/harness';
import { Kind, siblingsOf } from './kinds';
import { Tenant } from './world';

/** Every class of violation the probes report (each is written, 0 when it held). */
export const VIOLATION_CLASSES = [
  'cross_tenant_distinguishable',
  'cross_tenant_leak',
  'cross_mode_distinguishable',
  'cross_mode_leak',
  'kind_confusion_distinguishable',
  'kind_confusion_leak',
  'victim_changed',
  'server_error',
  'unknown_id_kind',
  'unprobed',
] as const;

/** What the probes count and what they found, written for the suite's runner and printed. */
export class Tally {
  requests = 0;
  snapshots = 0;
  readonly operations = { api: 0, v1: 0 };
  readonly operationsPresent = { api: 0, v1: 0 };
  graphqlFields = 0;
  graphqlFieldsPresent = 0;
  subscriptions = 0;
  readonly violations: Record<string, string[]> = {};

  violation(kind: (typeof VIOLATION_CLASSES)[number], detail: string) {
    (this.violations[kind] ??= []).push(detail);
  }

  counts(): Record<string, number> {
    return Object.fromEntries(VIOLATION_CLASSES.map((kind) => [kind, this.violations[kind]?.length ?? 0]));
  }

  total(): number {
    return Object.values(this.violations).reduce((sum, details) => sum + details.length, 0);
  }

  summary(): string {
    const found = Object.entries(this.counts()).filter(([, count]) => count > 0);
    return (
      `tenancy: ${this.operations.api}/${this.operationsPresent.api} /api/v1 operations, ${this.operations.v1}/${this.operationsPresent.v1} /v1 operations, ` +
      `${this.graphqlFields}/${this.graphqlFieldsPresent} GraphQL root fields, ${this.subscriptions} subscriptions, ${this.requests} requests, ` +
      `${this.snapshots} snapshots, ${this.total()} violations ${JSON.stringify(Object.fromEntries(found))}`
    );
  }

  /**
   * `<RELIABILITY_RESULTS_DIR>/tenancy.json`, the figures the suite's runner prints: the agreed
   * `{ name, operations, requests, violations }` in the shape of the runner's other files
   * (`file`, `scale`, `snapshots`, `kills`, `retries`, `counts`, `examples`).
   */
  write(scale: string) {
    const directory = process.env.RELIABILITY_RESULTS_DIR;
    if (!directory) return;
    fs.mkdirSync(directory, { recursive: true });
    const examples = Object.entries(this.violations).flatMap(([kind, details]) =>
      details.slice(0, 5).map((detail) => `${kind}: ${detail.slice(0, 400)}`),
    );
    fs.writeFileSync(
      path.join(directory, 'tenancy.json'),
      `${JSON.stringify(
        {
          name: 'tenancy',
          file: 'tenancy',
          scale,
          operations: this.operations.api + this.operations.v1 + this.graphqlFields,
          requests: this.requests,
          snapshots: this.snapshots,
          kills: 0,
          retries: 0,
          violations: this.counts(),
          counts: {
            requests: this.requests,
            'REST /api/v1 operations probed': this.operations.api,
            'REST /api/v1 operations present': this.operationsPresent.api,
            'REST /v1 operations probed': this.operations.v1,
            'REST /v1 operations present': this.operationsPresent.v1,
            'GraphQL root fields probed': this.graphqlFields,
            'GraphQL root fields present': this.graphqlFieldsPresent,
            'GraphQL subscriptions probed': this.subscriptions,
          },
          examples,
        },
        null,
        2,
      )}\n`,
    );
  }
}

/** An id of the same shape as `id` that names no row: what "does not exist" answers. */
export const unknownLike = (id: string) =>
  /^[0-9a-f-]{36}$/i.test(id) ? crypto.randomUUID() : id.slice(0, -8) + crypto.randomBytes(4).toString('hex');

/** Everything of a tenant a probe could reveal: every id of every kind and mode, its business, its users; and its marker. */
export function secretsOf(tenant: Tenant, mode: 'test' | 'live' | 'both' = 'both'): Set<string> {
  const secrets = new Set<string>([tenant.merchant.businessId, tenant.merchant.userId]);
  for (const ids of Object.values(tenant.ids)) {
    if (mode !== 'live') ids.test.forEach((id) => secrets.add(id));
    if (mode !== 'test') ids.live.forEach((id) => secrets.add(id));
  }
  return secrets;
}

/** The secrets (ids, marker) an answer holds, apart from those the request itself sent. */
export function revealed(answer: string, secrets: Set<string>, sent: string, marker?: string): string[] {
  const found = [...secrets].filter((secret) => answer.includes(secret) && !sent.includes(secret));
  if (marker && answer.toLowerCase().includes(marker.toLowerCase())) found.push(`marker ${marker}`);
  return found;
}

/**
 * A tenant's rows, every table with `business_id` (both modes), its business row, its members'
 * users and its journal entries, as text per row: compared before and after the probes. Columns
 * the tenant's own use changes (a key's last use) are left out.
 */
const VOLATILE_COLUMNS = ['last_used_at'];
export async function snapshot(server: TestServer, tally: Tally, businessId: string): Promise<Map<string, string>> {
  tally.snapshots += 1;
  const db = server.runtime.dataSource;
  const tables: Array<{ table: string }> = await db.query(
    `SELECT table_name AS table FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'business_id' ORDER BY 1`,
  );
  const parts = tables.map(
    ({ table }) =>
      `SELECT '${table}' AS t, (to_jsonb(x) - ARRAY[${VOLATILE_COLUMNS.map((c) => `'${c}'`).join(',')}])::text AS r FROM "${table}" x WHERE business_id = $1`,
  );
  parts.push(`SELECT 'businesses', to_jsonb(x)::text FROM businesses x WHERE id = $1`);
  parts.push(
    `SELECT 'users', to_jsonb(u)::text FROM users u JOIN memberships m ON m.user_id = u.id WHERE m.business_id = $1`,
  );
  parts.push(
    `SELECT 'journal_entries', to_jsonb(e)::text FROM journal_entries e JOIN journal_transactions j ON j.id = e.transaction_id WHERE j.business_id = $1`,
  );
  const rows: Array<{ t: string; r: string }> = await db.query(parts.join(' UNION ALL '), [businessId]);
  const result = new Map<string, string>();
  for (const { t, r } of rows)
    result.set(`${t}:${crypto.createHash('sha1').update(r).digest('hex')}`, `${t} ${r.slice(0, 300)}`);
  return result;
}

/** What changed between two snapshots, described row by row. */
export function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const gone = [...before.keys()].filter((key) => !after.has(key)).map((key) => `- ${before.get(key)}`);
  const added = [...after.keys()].filter((key) => !before.has(key)).map((key) => `+ ${after.get(key)}`);
  return [...gone, ...added];
}

/** Who calls with whose ids: `sibling` sends the caller's own ids of the kinds sharing the slot's table. */
export interface IdSource {
  owner: Tenant;
  victim: Tenant;
  victimMode: 'test' | 'live';
  sibling?: boolean;
}

/** The ids a variant puts in a slot of `kind`. */
export const victimIdsOf = (source: IdSource, kind: Kind): string[] =>
  source.sibling
    ? siblingsOf(kind).flatMap((sibling) => source.owner.ids[sibling][source.victimMode])
    : source.victim.ids[kind][source.victimMode];

/** The violation class of a variant's finding: another tenant, another mode, or another kind of the same table. */
export const classOf = (source: IdSource, finding: 'distinguishable' | 'leak'): (typeof VIOLATION_CLASSES)[number] =>
  source.sibling
    ? (`kind_confusion_${finding}` as const)
    : source.owner !== source.victim
      ? (`cross_tenant_${finding}` as const)
      : (`cross_mode_${finding}` as const);
