import { Greeting, GreetingService, greeted, welcomed } from './fixtures/greetings/domain';
import { waitUntil } from './support/wait';
import { operatorProgram } from '../src/cli/program';
import { entities } from '../src/db/entities';
import { taskList } from '../src/jobs/worker';
import { Core, createCore } from '../src/domain/core';
import type { AreaManifest } from '../src/domain/shared/area';
import { httpStatusOf } from '../src/http/status';
import { TestServer, startTestServer } from './support/harness';

/*
 * Adding an area is one line in src/areas.ts: the example area of test/fixtures/greetings (one
 * entity with its migration, a service built from another area's, a subscription to another area's
 * event, one job, one error code, two REST routes with their OpenAPI operations, a GraphQL query and
 * a mutation, one operator command) is added to the list here, and nothing else, and every registry
 * picks it up.
 */
jest.mock('../src/areas', () => {
  const actual = jest.requireActual<typeof import('../src/areas')>('../src/areas');
  const { greetingsArea } =
    jest.requireActual<typeof import('./fixtures/greetings/domain')>('./fixtures/greetings/domain');
  const greetings: import('../src/areas').Area = {
    domain: greetingsArea,
    rest: () => jest.requireActual('./fixtures/greetings/rest'),
    graphql: () => jest.requireActual('./fixtures/greetings/graphql'),
    cli: () => jest.requireActual('./fixtures/greetings/cli'),
  };
  return { ...actual, AREAS: [...actual.AREAS, greetings] };
});

describe('An area is one line in src/areas.ts', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  test("its entities are the data source's, and its migration ran", async () => {
    expect(entities).toContain(Greeting);
    const saved = await server.runtime.dataSource.getRepository(Greeting).save({ text: 'hello' });
    expect(await server.runtime.dataSource.getRepository(Greeting).findOneBy({ id: saved.id })).toMatchObject({
      text: 'hello',
    });
  });

  test('its service is built once, from the service of another area it names', () => {
    const { core } = server.runtime;
    expect(core.greeter).toBeInstanceOf(GreetingService);
    expect(core.greeter.events).toBe(core.events);
    expect(core.greeter).toBe(core.greeter);
  });

  test("its subscription hears another area's event, after the commit", async () => {
    const { businessId } = await server.signUp();
    await waitUntil(() => welcomed.includes(businessId), 'the greetings area hears the mode enabled');
    expect(welcomed.filter((id) => id === businessId)).toEqual([businessId]);
  });

  test('services that read each other in a circle, or one name declared twice, are refused at start', () => {
    const { config, secrets, dataSource, pubSub } = server.runtime.core;
    const build = (...areas: AreaManifest<Core>[]) => createCore(config, secrets, dataSource, pubSub, areas);
    const reads = (name: string) => (core: Core) => (core as unknown as Record<string, unknown>)[name] as never;
    expect(() =>
      build(
        { name: 'a', entities: [], services: { greeter: reads('events') } },
        { name: 'b', entities: [], services: { events: reads('greeter') } },
      ),
    ).toThrow('Services read each other in a circle: greeter → events → greeter');
    expect(() =>
      build(
        { name: 'a', entities: [], services: { greeter: reads('config') } },
        { name: 'b', entities: [], services: { greeter: reads('config') } },
      ),
    ).toThrow('The b area declares the service greeter, which the a area declares too');
    expect(() => build({ name: 'a', entities: [], services: { mailer: reads('config') } })).toThrow(
      'The a area declares the service mailer, which the kernel declares too',
    );
  });

  test("its job is one of the worker's tasks", async () => {
    const task = taskList(server.runtime.core).greet!;
    await task({ name: 'Ada' }, { logger: console } as never);
    expect(greeted).toEqual([{ name: 'Ada' }]);
  });

  test('its REST route answers, and is in the OpenAPI document with the name and tag its module gives', async () => {
    const response = await server.request('GET', '/api/v1/greetings/hello');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { greeting: 'hello, world' } });
    const document = (await server.request('GET', '/api/v1/openapi.json')).body;
    expect(document.paths['/api/v1/greetings/hello'].get).toMatchObject({
      operationId: 'getGreeting',
      summary: 'Get a greeting',
      tags: ['Greetings'],
    });
    // The tags are in the order of the areas: the one added last comes last.
    expect(document.tags.at(-1)).toEqual({ name: 'Greetings', description: 'The example area of test/areas.test.ts.' });
  });

  test('its GraphQL query is in the schema and answers', async () => {
    const response = await server.graphql<{ greeting: string }>('{ greeting }');
    expect(response.body).toEqual({ data: { greeting: 'hello' } });
  });

  test('its operator command is in the CLI, after the kernel and the other areas, and runs', async () => {
    const program = operatorProgram();
    expect(program.commands.map((command) => command.name()).slice(-2)).toEqual(['reconcile', 'greeting']);
    const written = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await program.parseAsync(['greeting'], { from: 'user' });
      expect(written).toHaveBeenCalledWith(`${JSON.stringify({ greeting: 'hello' }, null, 2)}\n`);
    } finally {
      written.mockRestore();
    }
  });

  test("its error code answers with its kind's status on REST, in the envelope and the OpenAPI document", async () => {
    expect(httpStatusOf.GREETING_REFUSED).toBe(422);
    const response = await server.request('GET', '/api/v1/greetings/refused');
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      success: false,
      error: { code: 'GREETING_REFUSED', message: 'No greeting for that name', statusCode: 422 },
    });
    const document = (await server.request('GET', '/api/v1/openapi.json')).body;
    expect(document.components.schemas.ErrorEnvelope.properties.error.properties.code.enum).toContain(
      'GREETING_REFUSED',
    );
  });

  test('its error code is a userError code of its GraphQL enum, described by its meaning', async () => {
    const refused = await server.graphql(
      'mutation { refuseGreeting { greeting userErrors { field message ... on GreetingUserError { code } } } }',
    );
    expect(refused.body).toEqual({
      data: {
        refuseGreeting: {
          greeting: null,
          userErrors: [{ field: null, message: 'No greeting for that name', code: 'GREETING_REFUSED' }],
        },
      },
    });
    const described = await server.graphql('{ __type(name: "GreetingErrorCode") { enumValues { name description } } }');
    expect(described.body.data).toEqual({
      __type: {
        enumValues: [{ name: 'GREETING_REFUSED', description: 'The example area does not greet that name' }],
      },
    });
  });
});
