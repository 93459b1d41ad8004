import fs from 'node:fs';
import path from 'node:path';
import { TestServer, startTestServer } from './support/harness';

/** The release in package.json, read here on its own so the test does not share the server's reading of it. */
const packageVersion = (
  JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
).version;

describe('One version everywhere', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  test("/healthz and both OpenAPI documents (info.x-tessera-version) report package.json's version", async () => {
    const health = await server.request('GET', '/healthz');
    const rest = await server.request('GET', '/api/v1/openapi.json');
    const v1 = await server.request('GET', '/v1/openapi.json');
    expect([health.status, rest.status, v1.status]).toEqual([200, 200, 200]);
    expect({
      healthz: health.body.version,
      rest: rest.body.info['x-tessera-version'],
      v1: v1.body.info['x-tessera-version'],
    }).toEqual({ healthz: packageVersion, rest: packageVersion, v1: packageVersion });
  });

  test("each document's info.version is the version the interface declares for its surface", async () => {
    const rest = await server.request('GET', '/api/v1/openapi.json');
    const v1 = await server.request('GET', '/v1/openapi.json');
    expect({ rest: rest.body.info.version, v1: v1.body.info.version }).toEqual({ rest: '2026-04-15', v1: '1.0' });
  });
});
