import { Greeting, greeted } from './fixtures/greetings/domain';
import { operatorProgram } from '../src/cli/program';
import { entities } from '../src/db/entities';
import { taskList } from '../src/jobs/worker';
import { TestServer, startTestServer } from './support/harness';

/*
 * Adding an area is one line in src/areas.ts: the example area of test/fixtures/greetings (one
 * entity with its migration, one job, one REST route, one GraphQL query, one operator command) is added to the list here,
 * and nothing else, and every registry picks it up.
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

  test("its job is one of the worker's tasks", async () => {
    const task = taskList(server.runtime.core).greet!;
    await task({ name: 'Ada' }, { logger: console } as never);
    expect(greeted).toEqual([{ name: 'Ada' }]);
  });

  test('its REST route answers, and is in the OpenAPI document', async () => {
    const response = await server.request('GET', '/api/v1/greetings/hello');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { greeting: 'hello' } });
    const document = (await server.request('GET', '/api/v1/openapi.json')).body;
    expect(Object.keys(document.paths)).toContain('/api/v1/greetings/hello');
  });

  test('its GraphQL query is in the schema and answers', async () => {
    const response = await server.graphql<{ greeting: string }>('{ greeting }');
    expect(response.body).toEqual({ data: { greeting: 'hello' } });
  });

  test('its operator command is in the CLI, after the kernel and the other areas, and runs', async () => {
    const program = operatorProgram();
    expect(program.commands.map((command) => command.name()).slice(-2)).toEqual(['v1-webhook-url', 'greeting']);
    const written = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await program.parseAsync(['greeting'], { from: 'user' });
      expect(written).toHaveBeenCalledWith(`${JSON.stringify({ greeting: 'hello' }, null, 2)}\n`);
    } finally {
      written.mockRestore();
    }
  });
});
