import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OPENAPI_PATH } from '../src/rest/surface';
import { V1_OPENAPI_PATH } from '../src/v1/surface';
import { TestServer, startTestServer } from './support/harness';

/**
 * The bar of issue 27 for the OpenAPI documents: clients generated from the served documents by
 * two generators nobody here wrote, `openapi-typescript` (types) and `@hey-api/openapi-ts` (types
 * and an SDK over fetch), type-check a merchant's flow written with the operations' names and the
 * named types: create a payout, read the Payout it answers, narrow its 422 on INSUFFICIENT_FUNDS,
 * and the same on `/v1` with a transfer. Everything happens in a temporary directory, offline: the
 * documents are handed to the generators as objects, and the flow is only compiled (tsc, the
 * project's TypeScript), never run.
 */

const ROOT = path.join(__dirname, '..');

/** Runs `script` (an ES module, as both generators are) in a Node process from the project root, with `input` as JSON on stdin. */
async function runModule(script: string, input: unknown): Promise<void> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stdin.end(JSON.stringify(input));
  const code = await exited;
  if (code !== 0) throw new Error(`the generator exited with ${code}:\n${output}`);
}

/** Runs the project's tsc on a tsconfig; answers its diagnostics ('' when the flow type-checks). */
async function typeCheck(project: string): Promise<string> {
  const child = spawn(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', project, '--noEmit', '--pretty', 'false'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return code === 0 ? '' : output || `tsc exited with ${code}`;
}

const GENERATE = `
  import fs from 'node:fs';
  import path from 'node:path';
  import openapiTS, { astToString } from 'openapi-typescript';
  import { createClient } from '@hey-api/openapi-ts';
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  const { documents, dir } = JSON.parse(text);
  await Promise.all(Object.entries(documents).map(async ([name, document]) => {
    fs.writeFileSync(path.join(dir, name + '.openapi-typescript.ts'), astToString(await openapiTS(document)));
    await createClient({
      input: { path: document },
      output: { path: path.join(dir, name + '-hey-api') },
      plugins: ['@hey-api/typescript', '@hey-api/sdk', '@hey-api/client-fetch'],
      logs: { level: 'silent', file: false },
    });
  }));
`;

/** A merchant's flow on `/api/v1`, with the openapi-typescript types. */
const REST_FLOW_OPENAPI_TYPESCRIPT = `
import type { components, operations } from './rest.openapi-typescript';

type Payout = components['schemas']['Payout'];
type PayoutInput = operations['createPayout']['requestBody'] extends { content: { 'application/json': infer B } } | undefined ? B : never;
type Created = operations['createPayout']['responses'][201]['content']['application/json'];
type Refused = operations['createPayout']['responses'][422]['content']['application/json'];

export const input: PayoutInput = { recipientId: '3f0c1e5a-8d2b-4c7e-9a41-6b2f0d9e7c13', amount: '100.00', currency: 'usd', reference: 'order_1042' };

export function describe(answer: Created | Refused): string {
  if (answer.success) {
    const payout: Payout = answer.data;
    return payout.status + ' ' + payout.amount + ' ' + payout.currency;
  }
  switch (answer.error.code) {
    case 'INSUFFICIENT_FUNDS': return 'top up the wallet';
    case 'UNPROCESSABLE': return 'the payout cannot be made: ' + answer.error.message;
    default: return answer.error.message;
  }
}

// A code the operation does not answer is not a case a client must handle: it does not compile.
// @ts-expect-error KYC_REQUIRED is a treasury refusal, never createPayout's
export const impossible: Refused['error']['code'] = 'KYC_REQUIRED';
// @ts-expect-error a list of payouts never answers INSUFFICIENT_FUNDS
export const notOnAList: operations['listPayouts']['responses'][422]['content']['application/json']['error']['code'] = 'INSUFFICIENT_FUNDS';
`;

/** The same flow with the @hey-api/openapi-ts SDK: its functions are named after the operationIds. */
const REST_FLOW_HEY_API = `
import { createPayout, getPayout } from './rest-hey-api/sdk.gen';
import type { CreatePayoutData, CreatePayoutErrors, Payout } from './rest-hey-api/types.gen';

export async function payOut(body: CreatePayoutData['body']): Promise<string> {
  const { data, error } = await createPayout({ body, baseUrl: 'https://tessera.example.com' });
  if (error) {
    const refused: CreatePayoutErrors[422] | CreatePayoutErrors[keyof CreatePayoutErrors] = error;
    if (refused.error.code === 'INSUFFICIENT_FUNDS') return 'top up the wallet';
    return refused.error.message;
  }
  const payout: Payout | undefined = data?.data;
  const again = await getPayout({ path: { id: payout!.id }, baseUrl: 'https://tessera.example.com' });
  return again.data?.data.status ?? 'unknown';
}

export const body: CreatePayoutData['body'] = { recipientId: '3f0c1e5a-8d2b-4c7e-9a41-6b2f0d9e7c13', amount: '100.00', currency: 'usd', reference: 'order_1042' };
// @ts-expect-error KYC_REQUIRED is not an answer of createPayout
export const impossible: CreatePayoutErrors[422]['error']['code'] = 'KYC_REQUIRED';
`;

/** A `/v1` client's flow: a transfer, refused with insufficient_balance. */
const V1_FLOW = `
import type { components, operations } from './v1.openapi-typescript';
import { createTransfer } from './v1-hey-api/sdk.gen';
import type { CreateTransferErrors, V1Transfer } from './v1-hey-api/types.gen';

type Refused = operations['createTransfer']['responses'][422]['content']['application/json'];
export const refusedFor = (answer: Refused) => (answer.error.code === 'insufficient_balance' ? 'top up' : answer.error.message);
export const read = (transfer: components['schemas']['V1Transfer']) => transfer.id;

export async function transfer(): Promise<string> {
  const { data, error } = await createTransfer({
    baseUrl: 'https://tessera.example.com',
    body: { source_amount: 10000, source_currency: 'GBP', destination_currency: 'NGN', recipient: { name: 'Ada Lovelace', sort_code: '058', account_number: '0123456789', country: 'NG' } },
  });
  if (error) {
    const refused = error as CreateTransferErrors[422];
    return refused.error.code === 'insufficient_balance' ? 'top up' : refused.error.message;
  }
  const made: V1Transfer | undefined = data;
  return made?.status ?? 'unknown';
}
`;

describe('Clients generated from the served OpenAPI documents', () => {
  let server: TestServer;
  let dir: string;

  beforeAll(async () => {
    server = await startTestServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-clients-'));
  });

  afterAll(async () => {
    await server?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  // Generating (both documents at once) and compiling clients of 140 operations is about 20 s of
  // CPU; the limit is a backstop for a hung child process, not a budget.
  test('openapi-typescript and @hey-api/openapi-ts clients of both documents type-check a flow with operation names and named types', async () => {
    const rest = (await server.request('GET', OPENAPI_PATH)).body;
    const v1 = (await server.request('GET', V1_OPENAPI_PATH)).body;
    await runModule(GENERATE, { documents: { rest, v1 }, dir });
    expect(fs.existsSync(path.join(dir, 'rest-hey-api', 'sdk.gen.ts'))).toBe(true);

    fs.writeFileSync(path.join(dir, 'rest-flow.openapi-typescript.ts'), REST_FLOW_OPENAPI_TYPESCRIPT);
    fs.writeFileSync(path.join(dir, 'rest-flow.hey-api.ts'), REST_FLOW_HEY_API);
    fs.writeFileSync(path.join(dir, 'v1-flow.ts'), V1_FLOW);
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          module: 'ESNext',
          moduleResolution: 'Bundler',
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          types: [],
        },
        include: ['*.ts', '*-hey-api/**/*.ts'],
      }),
    );
    expect(await typeCheck(path.join(dir, 'tsconfig.json'))).toBe('');
  }, 180_000);
});
