import { TestServer, startTestServer } from '../support/harness';
import { ANY_KIND_OF_TABLE, SKIPPED } from './probes/kinds';
import { Operation, operationsOf } from './probes/rest';
import { Variant, ownIdsAnswers, probeOperation, probeWithoutIds, unchanged } from './probes/rest-probe';
import { graphqlProbes } from './probes/graphql-probe';
import { Tally, snapshot } from './probes/tally';
import { Tenant, buildTenant, nameOtherBusiness } from './probes/world';

/**
 * Cross-tenant and test/live probes over every REST operation of both OpenAPI documents and
 * every root field of the GraphQL schema, generated from the running server's documents and
 * schema, so that a new route or field is probed without a new test (docs/reliability.md, "Cross-tenant and test/live probes").
 * Business B calls every operation with business A's ids (and each business's test credentials
 * its live ids, and the reverse): each answer must be the answer to an id that does not exist,
 * never a 5xx, holding nothing of A, and A's rows must be unchanged. An id the generator cannot
 * place fails the coverage check. Each business's own ids of another kind kept in the same table
 * (the other webhook registry, another delivery target) must be absent too. RELIABILITY_SCALE=ci
 * (default) probes one id of each kind per slot; full builds every object twice and probes up to
 * five ids of each kind, with more callers.
 */

/** A backstop for a hung run, not a budget: a ci run takes 15 s to about a minute on a busy machine. */
const BACKSTOP_MS = 600_000;

const SCALE = process.env.RELIABILITY_SCALE === 'full' ? 'full' : 'ci';
const COPIES = SCALE === 'full' ? 2 : 1;
const IDS_PER_KIND = SCALE === 'full' ? 5 : 1;

describe('Tenancy probes generated from the OpenAPI documents and the GraphQL schema', () => {
  let server: TestServer;
  let a: Tenant;
  let b: Tenant;
  const tally = new Tally();
  let operations: Operation[] = [];
  let variants: Variant[] = [];
  const unprobed: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    a = await buildTenant(server, 'Alpha', COPIES);
    b = await buildTenant(server, 'Bravo', COPIES);
    nameOtherBusiness(b, a);
    const documents = [
      ['api', (await server.request('GET', '/api/v1/openapi.json')).body],
      ['v1', (await server.request('GET', '/v1/openapi.json')).body],
    ] as const;
    operations = documents.flatMap(([name, document]) => operationsOf(document, name));
    const crossTenant = (caller: Variant['caller'], document: Variant['document'], mode: 'test' | 'live'): Variant => ({
      name: `${b.name} ${caller} -> ${a.name} ${mode} ids`,
      owner: b,
      caller,
      ownMode: mode,
      victim: a,
      victimMode: mode,
      document,
    });
    const crossMode = (caller: Variant['caller'], document: Variant['document'], own: 'test' | 'live'): Variant => ({
      name: `${a.name} ${caller} -> own ${own === 'test' ? 'live' : 'test'} ids`,
      owner: a,
      caller,
      ownMode: own,
      victim: a,
      victimMode: own === 'test' ? 'live' : 'test',
      document,
    });
    variants = [
      crossTenant('testKey', 'api', 'test'),
      crossTenant('dashboard', 'api', 'test'),
      crossTenant('liveKey', 'api', 'live'),
      crossTenant('dashboardNamingOther', 'api', 'test'),
      {
        name: `${b.name} testKey -> own ids of another kind`,
        owner: b,
        caller: 'testKey',
        ownMode: 'test',
        victim: b,
        victimMode: 'test',
        document: 'api',
        sibling: true,
      },
      crossMode('testKey', 'api', 'test'),
      crossMode('liveKey', 'api', 'live'),
      crossTenant('v1Test', 'v1', 'test'),
      crossTenant('v1Live', 'v1', 'live'),
      crossMode('v1Test', 'v1', 'test'),
      crossMode('v1Live', 'v1', 'live'),
    ];
    if (SCALE === 'full')
      variants.push(
        crossTenant('dashboardLive', 'api', 'live'),
        crossTenant('apiToken', 'api', 'test'),
        crossMode('dashboard', 'api', 'test'),
        crossMode('dashboardLive', 'api', 'live'),
      );
  }, BACKSTOP_MS);

  afterAll(async () => {
    console.log(tally.summary());
    for (const what of unprobed) tally.violation('unprobed', what);
    tally.write(SCALE);
    await server?.close();
  });

  test('every id of every operation and field has a known kind (coverage)', () => {
    const unknown = operations.flatMap((operation) => operation.unknown);
    for (const what of unknown) tally.violation('unknown_id_kind', what);
    expect(unknown).toEqual([]);
    // The lists name operations that exist.
    const listed = [...Object.keys(SKIPPED), ...Object.keys(ANY_KIND_OF_TABLE).filter((key) => key.includes(' '))];
    expect(listed.filter((key) => !operations.some((operation) => operation.key === key))).toEqual([]);
  });

  test(
    "REST: another tenant's and another mode's ids answer like ids that do not exist, reveal nothing and change nothing",
    async () => {
      let before = await snapshot(server, tally, a.merchant.businessId);
      const withIds = operations.filter((operation) => !operation.skipped && operation.slots.length > 0);
      for (const operation of withIds) {
        const { reached, controls } = await probeOperation(server, tally, operation, variants, IDS_PER_KIND);
        tally.operations[operation.document] += 1;
        if (!reached) {
          // Unknown ids refused otherwise than NOT_FOUND: the probe counts when B's own ids succeed.
          const own = await ownIdsAnswers(
            server,
            tally,
            operation,
            b,
            operation.document === 'api' ? 'testKey' : 'v1Test',
          );
          if (!own.some((answer) => answer.status < 300)) {
            unprobed.push(
              `${operation.key} (unknown ids answered ${[...controls].join(', ')}; own ids ${own.map((answer) => `${answer.status} ${answer.text.slice(0, 100)}`).join(', ')})`,
            );
          }
        }
        if (operation.writes) before = await unchanged(server, tally, a, before, operation.key);
      }
      // Operations without ids, called as B: their answers hold nothing of A.
      for (const operation of operations.filter((candidate) => !candidate.skipped && candidate.slots.length === 0)) {
        const callers =
          operation.document === 'api' ? (['testKey', 'liveKey'] as const) : (['v1Test', 'v1Live'] as const);
        for (const caller of callers) await probeWithoutIds(server, tally, operation, b, b.callers[caller], a);
        tally.operations[operation.document] += 1;
      }
      await unchanged(server, tally, a, before, 'the operations without ids');
      for (const document of ['api', 'v1'] as const)
        tally.operationsPresent[document] = operations.filter((operation) => operation.document === document).length;

      // A GET with B's own ids answers 2xx: the kinds given to each path parameter are right.
      const wrongKinds: string[] = [];
      for (const operation of withIds.filter(
        (candidate) => candidate.method === 'GET' && /\{\{/.test(candidate.templates[0].path.split('?')[0]),
      )) {
        const [answer] = await ownIdsAnswers(
          server,
          tally,
          operation,
          b,
          operation.document === 'api' ? 'testKey' : 'v1Test',
        );
        if (answer.status >= 300) wrongKinds.push(`${operation.key} -> ${answer.status} ${answer.text.slice(0, 160)}`);
      }
      expect(wrongKinds).toEqual([]);
      expect(unprobed).toEqual([]);
      expect(tally.violations).toEqual({});
      expect(tally.operations.api + Object.keys(SKIPPED).length).toBe(tally.operationsPresent.api);
      expect(tally.operations.v1).toBe(tally.operationsPresent.v1);
    },
    BACKSTOP_MS,
  );

  test(
    'GraphQL: every root field with an ID argument, over HTTP and WebSocket, and the subscriptions',
    async () => {
      const restViolations = new Set(Object.values(tally.violations).flat());
      const { unprobed: unprobedFields, unknown } = await graphqlProbes(server, tally, a, b, SCALE, IDS_PER_KIND);
      for (const what of unknown) tally.violation('unknown_id_kind', what);
      unprobed.push(...unprobedFields);
      expect(unknown).toEqual([]);
      expect(unprobedFields).toEqual([]);
      const graphqlViolations = Object.fromEntries(
        Object.entries(tally.violations)
          .map(([kind, details]) => [kind, details.filter((detail) => !restViolations.has(detail))])
          .filter(([, details]) => details.length > 0),
      );
      expect(graphqlViolations).toEqual({});
    },
    BACKSTOP_MS,
  );
});
