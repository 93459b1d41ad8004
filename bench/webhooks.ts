/**
 * Webhook delivery throughput and latency from commit to first attempt, next to a baseline measured
 * in the same run: the same receiver hit by plain `fetch` POSTs of the same bodies at the same concurrency.
 */
import http from 'node:http';
import net from 'node:net';
import { Mode } from '../src/domain/identity/identity.entities';
import { RequestContext, inTransaction } from '../src/domain/shared/context';
import { startWorker, stopWorker } from '../src/jobs/worker';
import { Runtime } from '../src/runtime';
import { percentile } from './util';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000);
export const WEBHOOK_CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 8);
const CONCURRENCY = WEBHOOK_CONCURRENCY;

export async function benchWebhooks(runtime: Runtime) {
  const arrivals = new Map<number, number>();
  let received = 0;
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received += 1;
      const seq = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { seq?: number } }).data.seq;
      if (typeof seq === 'number' && !arrivals.has(seq)) arrivals.set(seq, performance.now());
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hooks`;

  const { core } = runtime;
  try {
    const { business } = await core.identity.businesses.createBusinessWithOwnerAccount(core.anonymousContext(), {
      email: 'bench-webhooks@example.com', password: 'bench password 1', name: 'Bench',
    });
    const ctx = new RequestContext(runtime.dataSource, { kind: 'system', name: 'bench' }, business.id, Mode.TEST);
    await core.identity.businesses.updateSettings(ctx, { webhookUrl: url });

    // Baseline: the receiver's own ceiling with plain fetch at the same concurrency.
    const body = JSON.stringify({ event: 'bench.tick', timestamp: new Date().toISOString(), data: { n: 0 } });
    let next = 0;
    const baselineStart = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < EVENTS) {
        next += 1;
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await response.text();
      }
    }));
    const baselinePerSecond = EVENTS / ((performance.now() - baselineStart) / 1000);

    const waitFor = async (count: number) => {
      const deadline = Date.now() + 120_000;
      while (arrivals.size < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    };

    // Latency: a worker is running; events commit one after another.
    const LATENCY_EVENTS = Math.min(300, EVENTS);
    let worker = await startWorker(core, runtime.databaseUrl, () => undefined);
    const committedAt = new Map<number, number>();
    for (let seq = 0; seq < LATENCY_EVENTS; seq += 1) {
      await inTransaction(ctx, (tx) => core.events.record(tx, 'bench.tick', { seq }));
      committedAt.set(seq, performance.now());
    }
    await waitFor(LATENCY_EVENTS);
    await stopWorker(worker);
    const latencies = [...arrivals.entries()].map(([seq, at]) => at - committedAt.get(seq)!);

    // Throughput: a backlog of EVENTS committed deliveries, drained by one worker.
    for (let seq = LATENCY_EVENTS; seq < LATENCY_EVENTS + EVENTS; seq += 1) {
      await inTransaction(ctx, (tx) => core.events.record(tx, 'bench.tick', { seq }));
    }
    const drainStart = performance.now();
    worker = await startWorker(core, runtime.databaseUrl, () => undefined);
    await waitFor(LATENCY_EVENTS + EVENTS);
    const perSecond = (arrivals.size - LATENCY_EVENTS) / ((performance.now() - drainStart) / 1000);
    await stopWorker(worker);

    console.log(`webhooks: ${arrivals.size}/${LATENCY_EVENTS + EVENTS} deliveries arrived; one worker, concurrency ${CONCURRENCY}`);
    console.log(`webhooks: ${perSecond.toFixed(0)} deliveries/s draining a backlog of ${EVENTS}`);
    console.log(`webhooks: commit -> first attempt p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (${LATENCY_EVENTS} events)`);
    console.log(`baseline: ${baselinePerSecond.toFixed(0)} plain fetch POSTs/s to the same receiver, same concurrency`);
    console.log(`ratio:    ${(perSecond / baselinePerSecond).toFixed(2)} of the baseline`);
  } finally {
    receiver.close();
  }
}
