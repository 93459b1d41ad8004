import 'reflect-metadata';
import { AddressInfo } from 'node:net';
import { loadConfig } from './config';
import { buildTesseraSchema } from './graphql/schema';
import { buildApp } from './server/app';
import { startWorker, stopWorker } from './jobs/worker';
import { openRuntime, seedSandboxBusiness } from './runtime';
import { StartupError, startupFailureLine } from './startup-error';

async function main() {
  const config = loadConfig();
  const say = (line: string) => process.stdout.write(`[tessera] ${line}\n`);
  const runtime = await openRuntime(config, { log: say });
  const schema = await buildTesseraSchema(runtime.core.pubSub);
  const app = await buildApp(runtime.core, schema);

  if (config.seedSandboxBusiness) {
    const seeded = await seedSandboxBusiness(runtime.core);
    if (seeded) {
      say('Created the sandbox business. These credentials are shown once; keep them:');
      say(`  businessId:  ${seeded.business.id}`);
      say(`  apiKey:      ${seeded.credentials.apiKey}`);
      say(`  apiSecret:   ${seeded.credentials.apiSecret}`);
      say(`  publishable: ${seeded.credentials.publishableKey}`);
      say(`  /v1 key:     ${seeded.v1Key}`);
      say(`  dashboard:   ${seeded.email} / ${seeded.password}`);
    }
  }

  const worker = config.workerInProcess ? await startWorker(runtime.core, runtime.databaseUrl, say) : null;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Connections the database closes while it stops are expected now, not a crash.
    process.on('uncaughtException', (error: Error & { code?: string }) => {
      if (error.code === '57P01') return;
      say(`Error during shutdown: ${error.message}`);
      process.exit(1);
    });
    say(`${signal} received: finishing in-flight requests and shutting down`);
    const force = setTimeout(() => {
      say('Shutdown grace period elapsed; exiting');
      process.exit(1);
    }, config.shutdownGraceMs);
    force.unref();
    try {
      await app.close();
      if (worker) await stopWorker(worker);
      await runtime.close();
      say('Stopped');
      process.exit(0);
    } catch (error) {
      say(`Shutdown failed: ${(error as Error).message}`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (worker) await stopWorker(worker);
    await runtime.close();
    throw new StartupError(
      `Port ${config.port} on ${config.host} is in use by another program. Stop it or set PORT to a free port.`,
    );
  }
  say(`Ready on ${listeningOn(config.host, app.addresses())}; GraphQL at /graphql, REST at /api/v1)`);
}

/** The address to open and those the server is bound to, from the sockets themselves: `http://localhost:4000 (listening on 127.0.0.1 and ::1`. */
function listeningOn(host: string, addresses: Array<AddressInfo | string>): string {
  const sockets = addresses.filter((address): address is AddressInfo => typeof address !== 'string');
  const bound = new Set(
    sockets.map(({ address }) =>
      address === '0.0.0.0' || address === '::' ? `every interface (${address})` : address,
    ),
  );
  return `http://${host.includes(':') ? `[${host}]` : host}:${sockets[0].port} (listening on ${[...bound].join(' and ')}`;
}

main().catch((error) => {
  process.stderr.write(`[tessera] ${startupFailureLine(error)}\n`);
  process.exit(1);
});
