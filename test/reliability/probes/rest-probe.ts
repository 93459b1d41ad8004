import { TestServer } from '../../support/harness';
import { ANY_KIND_OF_TABLE, Kind } from './kinds';
import { Operation, PLACEHOLDER } from './rest';
import { IdSource, Tally, changes, classOf, revealed, secretsOf, snapshot, unknownLike, victimIdsOf } from './tally';
import { Caller, Tenant } from './world';

/**
 * One way of reaching another tenant's (or mode's) rows: a caller of `owner` in `ownMode` sends
 * ids of `victim` in `victimMode`. Cross-tenant: B's credential, A's ids of the same mode.
 * Test/live: a tenant's test credential with its own live ids, and the reverse.
 */
export interface Variant extends IdSource {
  name: string;
  caller: Caller;
  ownMode: 'test' | 'live';
  /** Operations of which document this caller can call. */
  document: 'api' | 'v1';
}

interface Answer {
  status: number;
  code: string | null;
  text: string;
}

async function send(
  server: TestServer,
  tally: Tally,
  headers: Record<string, string>,
  method: string,
  path: string,
  body: unknown,
): Promise<Answer> {
  tally.requests += 1;
  const response = await server.request(method, path, { headers, ...(body === undefined ? {} : { body }) });
  const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
  return { status: response.status, code: response.body?.error?.code ?? null, text };
}

const fill = (template: unknown, idFor: (kind: Kind) => string) =>
  JSON.parse(JSON.stringify(template ?? null).replace(PLACEHOLDER, (_, kind: Kind) => idFor(kind)));
const fillPath = (path: string, idFor: (kind: Kind) => string) =>
  path.replace(PLACEHOLDER, (_, kind: Kind) => idFor(kind));

const NOT_FOUND = new Set(['NOT_FOUND', 'not_found']);

/**
 * Probes one operation with every variant: for each slot set (all slots foreign, and each slot
 * alone foreign with the caller's own ids elsewhere) and each template, the request with the
 * victim's ids and the same request with ids that name no row. The two answers must be the same
 * (status and error code: another tenant's row is as absent as a row that does not exist), never
 * a 5xx, and the answer must hold nothing of the victim. Answers whether some probe reached the
 * lookup (its control answered NOT_FOUND).
 */
export async function probeOperation(
  server: TestServer,
  tally: Tally,
  operation: Operation,
  variants: Variant[],
  idsPerKind: number,
): Promise<{ reached: boolean; controls: Set<string> }> {
  let reachedLookup = false;
  const controls = new Set<string>();
  // A list filtered by an id reaches the lookup when it answers (an empty page) rather than refusing.
  const isListFilter = operation.method === 'GET' && !/\{\{/.test(operation.templates[0].path.split('?')[0]);
  const slotSets: Kind[][] =
    operation.slots.length > 1 ? [operation.slots, ...operation.slots.map((slot) => [slot])] : [operation.slots];
  const tasks: Array<() => Promise<void>> = [];
  for (const variant of variants.filter(
    (candidate) =>
      candidate.document === operation.document && !(candidate.sibling && ANY_KIND_OF_TABLE[operation.key]),
  )) {
    const headers = variant.owner.callers[variant.caller];
    const crossTenant = variant.owner !== variant.victim;
    // The kind-confusion probes send the caller's own rows: nothing of them is a secret.
    const secrets = variant.sibling
      ? new Set<string>()
      : secretsOf(variant.victim, crossTenant ? 'both' : variant.victimMode);
    const own = (kind: Kind) => variant.owner.ids[kind][variant.ownMode][0] ?? variant.owner.ids[kind].test[0];
    for (const foreign of slotSets) {
      const victimIds = (kind: Kind) => victimIdsOf(variant, kind).slice(0, idsPerKind);
      if (foreign.some((kind) => victimIds(kind).length === 0)) continue;
      // Only the templates that carry a foreign slot: the others would act on the caller's own rows.
      for (const template of operation.templates.filter((candidate) =>
        foreign.every((kind) => JSON.stringify(candidate).includes(`{{${kind}}}`)),
      )) {
        for (let index = 0; index < idsPerKind; index += 1) {
          if (foreign.every((kind) => victimIds(kind)[index] === undefined)) continue;
          const unknown = new Map<Kind, string>();
          const probeId = (kind: Kind) =>
            foreign.includes(kind) ? (victimIds(kind)[index] ?? victimIds(kind)[0]) : own(kind);
          const controlId = (kind: Kind) => {
            if (!foreign.includes(kind)) return own(kind);
            if (!unknown.has(kind)) unknown.set(kind, unknownLike(probeId(kind)));
            return unknown.get(kind)!;
          };
          tasks.push(async () => {
            const path = fillPath(template.path, probeId);
            const body = template.body === undefined ? undefined : fill(template.body, probeId);
            const label = `${operation.key} [${variant.name}; foreign ${foreign.join('+')}] ${path}${body === undefined ? '' : ` ${JSON.stringify(body).slice(0, 120)}`}`;
            const probe = await send(server, tally, headers, operation.method, path, body);
            const control = await send(
              server,
              tally,
              headers,
              operation.method,
              fillPath(template.path, controlId),
              template.body === undefined ? undefined : fill(template.body, controlId),
            );
            if (probe.status >= 500)
              tally.violation('server_error', `${label} -> ${probe.status} ${probe.text.slice(0, 200)}`);
            if (probe.status !== control.status || probe.code !== control.code) {
              tally.violation(
                classOf(variant, 'distinguishable'),
                `${label} -> ${probe.status} ${probe.code} but an unknown id -> ${control.status} ${control.code}: ${probe.text.slice(0, 200)}`,
              );
            }
            const leaked = revealed(
              probe.text,
              secrets,
              JSON.stringify([path, body]),
              crossTenant ? variant.victim.marker : undefined,
            );
            if (leaked.length > 0)
              tally.violation(classOf(variant, 'leak'), `${label} -> ${probe.status} holds ${leaked.join(', ')}`);
            if (
              (control.status === 404 && NOT_FOUND.has(control.code ?? '')) ||
              (isListFilter && control.status === 200)
            )
              reachedLookup = true;
            controls.add(`${control.status} ${control.code}`);
          });
        }
      }
    }
  }
  // A few at a time: the requests of one operation are independent.
  for (let start = 0; start < tasks.length; start += 4)
    await Promise.all(tasks.slice(start, start + 4).map((task) => task()));
  return { reached: reachedLookup, controls };
}

/** An operation without tenant ids, called as `caller`: never a 5xx, and nothing of `victim` in its answer. */
export async function probeWithoutIds(
  server: TestServer,
  tally: Tally,
  operation: Operation,
  caller: Tenant,
  headers: Record<string, string>,
  victim: Tenant,
) {
  const secrets = secretsOf(victim);
  for (const template of operation.templates) {
    const answer = await send(server, tally, headers, operation.method, template.path, template.body);
    const label = `${operation.key} as ${caller.name}`;
    if (answer.status >= 500)
      tally.violation('server_error', `${label} -> ${answer.status} ${answer.text.slice(0, 200)}`);
    const leaked = revealed(answer.text, secrets, JSON.stringify(template), victim.marker);
    if (leaked.length > 0)
      tally.violation('cross_tenant_leak', `${label} -> ${answer.status} holds ${leaked.join(', ')}`);
  }
}

/** Whether the victim's rows are as they were; reports what changed, naming the operation, and answers the new state. */
export async function unchanged(
  server: TestServer,
  tally: Tally,
  victim: Tenant,
  before: Map<string, string>,
  what: string,
) {
  const after = await snapshot(server, tally, victim.merchant.businessId);
  const changed = changes(before, after);
  if (changed.length > 0)
    tally.violation('victim_changed', `${what} changed ${victim.name}'s rows:\n${changed.slice(0, 6).join('\n')}`);
  return after;
}

/**
 * The operation with the caller's own ids in every slot (each template): a GET shows the kinds the
 * generator gave the path parameters are right; for an operation whose unknown ids are refused
 * otherwise than NOT_FOUND (a batch's per-item 400), a 2xx shows the id decides the answer.
 */
export async function ownIdsAnswers(
  server: TestServer,
  tally: Tally,
  operation: Operation,
  owner: Tenant,
  caller: Caller,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const template of operation.templates) {
    const idFor = (kind: Kind) => owner.ids[kind].test[0];
    answers.push(
      await send(
        server,
        tally,
        owner.callers[caller],
        operation.method,
        fillPath(template.path, idFor),
        template.body === undefined ? undefined : fill(template.body, idFor),
      ),
    );
  }
  return answers;
}
