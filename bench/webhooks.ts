/**
 * Webhook delivery throughput and latency from commit to first attempt, next to a baseline measured
 * in the same run: the same receiver hit by plain `fetch` POSTs of the same bodies at the same
 * concurrency; and the SQL statements one delivery costs, captured from the driver.
 */
import http from 'node:http';
import net from 'node:net';
import { Mode } from '../src/domain/shared/modes';
import { RequestContext, inTransaction } from '../src/domain/shared/context';
import { startWorker, stopWorker } from '../src/jobs/worker';
import { Runtime } from '../src/runtime';
import { CapturedStatement, captureStatements } from './sql-capture';
import { percentile, profiled } from './util';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000);
/** Deliveries drained (and plain POSTs sent) before anything is measured, so both sides run warm (JIT, connections). */
const WARMUP_EVENTS = Number(process.env.BENCH_WEBHOOK_WARMUP_EVENTS ?? 1000);
const LATENCY_EVENTS = Math.min(Number(process.env.BENCH_WEBHOOK_LATENCY_EVENTS ?? 200), EVENTS);
const COUNTED_EVENTS = 100;
export const WEBHOOK_CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 8);
const CONCURRENCY = WEBHOOK_CONCURRENCY;

/** The local receiver: answers every POST "ok" and notes when each event's first attempt arrived. */
async function startReceiver() {
  const arrivals = new Map<number, number>();
  const waiting = new Map<number, () => void>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const seq = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { seq?: number } }).data.seq;
      if (typeof seq === 'number' && !arrivals.has(seq)) {
        arrivals.set(seq, performance.now());
        waiting.get(seq)?.();
      }
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hooks`;
  /** Resolves once `seq` has arrived (or after the deadline, so a lost delivery shows as a missing arrival). */
  const arrivalOf = (seq: number, timeoutMs = 30_000) =>
    new Promise<void>((resolve) => {
      if (arrivals.has(seq)) return resolve();
      const timer = setTimeout(resolve, timeoutMs);
      waiting.set(seq, () => {
        clearTimeout(timer);
        waiting.delete(seq);
        resolve();
      });
    });
  const allArrived = async (count: number) => {
    const deadline = Date.now() + 120_000;
    while (arrivals.size < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return { url, arrivals, arrivalOf, allArrived, close: () => server.close() };
}

const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
};

/** Statements grouped by their text's first words, most frequent first (BENCH_SHOW_SQL prints them). */
const shapesOf = (statements: CapturedStatement[]) => {
  const counts = new Map<string, number>();
  for (const { text } of statements) {
    const shape = text.replace(/\s+/g, ' ').trim().slice(0, 90);
    counts.set(shape, (counts.get(shape) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
};

export async function benchWebhooks(runtime: Runtime) {
  const receiver = await startReceiver();
  const { url, arrivals } = receiver;
  const { core } = runtime;
  try {
    const { business } = await core.identity.businesses.createBusinessWithOwnerAccount(core.anonymousContext(), {
      email: 'bench-webhooks@example.com',
      password: 'bench password 1',
      name: 'Bench',
    });
    const ctx = new RequestContext(runtime.dataSource, { kind: 'system', name: 'bench' }, business.id, Mode.TEST);
    await core.identity.businesses.updateSettings(ctx, { webhookUrl: url });
    const recordTick = (seq: number) => inTransaction(ctx, (tx) => core.events.record(tx, 'bench.tick', { seq }));

    // Baseline: the receiver's own ceiling with plain fetch at the same concurrency, measured before
    // and after the drain (the machine may be shared: the ratio uses their mean).
    const body = JSON.stringify({ event: 'bench.tick', timestamp: new Date().toISOString(), data: { n: 0 } });
    const plainFetches = async (count = EVENTS) => {
      let next = 0;
      const cpu = process.cpuUsage();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < count) {
            next += 1;
            const response = await fetch(url, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body,
            });
            await response.text();
          }
        }),
      );
      return { perSecond: count / ((performance.now() - started) / 1000), cpuMs: cpuMsSince(cpu) / count };
    };
    let seq = 0;

    // Warm-up of both sides, not measured: plain POSTs, then a backlog drained by a worker.
    await plainFetches(WARMUP_EVENTS);
    for (const end = seq + WARMUP_EVENTS; seq < end; seq += 1) await recordTick(seq);
    let worker = await startWorker(core, runtime.databaseUrl, () => undefined);
    await receiver.allArrived(seq);
    await stopWorker(worker);
    const warmedUp = arrivals.size;

    const before = await plainFetches();

    // Latency: a worker is running; events are recorded one at a time, each waiting for the previous
    // one's first attempt, so the figure is the pick-up path and not a queue.
    worker = await startWorker(core, runtime.databaseUrl, () => undefined);
    const latencies: number[] = [];
    for (const end = seq + LATENCY_EVENTS; seq < end; seq += 1) {
      await recordTick(seq);
      const committedAt = performance.now();
      await receiver.arrivalOf(seq);
      if (arrivals.has(seq)) latencies.push(arrivals.get(seq)! - committedAt);
    }
    await stopWorker(worker);

    // Throughput: a backlog of EVENTS committed deliveries, drained by one worker.
    const beforeDrain = arrivals.size;
    for (const end = seq + EVENTS; seq < end; seq += 1) await recordTick(seq);
    const drainCpu = process.cpuUsage();
    const drainStart = performance.now();
    await profiled('BENCH_WEBHOOK_CPU_PROFILE', async () => {
      worker = await startWorker(core, runtime.databaseUrl, () => undefined);
      await receiver.allArrived(seq);
    });
    const perSecond = (arrivals.size - beforeDrain) / ((performance.now() - drainStart) / 1000);
    const cpuMsPerDelivery = cpuMsSince(drainCpu) / EVENTS;
    await stopWorker(worker);
    const after = await plainFetches();
    const baselinePerSecond = (before.perSecond + after.perSecond) / 2;

    // Statements per delivery: a worker started and stopped with COUNTED_EVENTS deliveries waiting,
    // minus one started and stopped with none (its start-up, cron and polling statements).
    const idle = await captureStatements(async () =>
      stopWorker(await startWorker(core, runtime.databaseUrl, () => undefined)),
    );
    for (const end = seq + COUNTED_EVENTS; seq < end; seq += 1) await recordTick(seq);
    const counted = await captureStatements(async () => {
      const countingWorker = await startWorker(core, runtime.databaseUrl, () => undefined);
      await receiver.allArrived(seq);
      await stopWorker(countingWorker);
    });
    const perDelivery = (counted.length - idle.length) / COUNTED_EVENTS;

    console.log(
      `webhooks: ${arrivals.size}/${seq} deliveries arrived (${warmedUp} of them the warm-up's); one worker, concurrency ${CONCURRENCY}`,
    );
    console.log(`webhooks: ${perSecond.toFixed(0)} deliveries/s draining a backlog of ${EVENTS}`);
    console.log(
      `webhooks: commit -> first attempt p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (${latencies.length} events recorded one at a time)`,
    );
    console.log(
      `webhooks: ${perDelivery.toFixed(1)} SQL statements per delivery (worker's included), captured from the driver`,
    );
    if (process.env.BENCH_SHOW_SQL) {
      for (const [shape, count] of shapesOf(counted))
        console.log(`  ${(count / COUNTED_EVENTS).toFixed(2)} x ${shape}`);
    }
    console.log(
      `webhooks: ${cpuMsPerDelivery.toFixed(2)} ms of this process's CPU per delivery (receiver included), against ${((before.cpuMs + after.cpuMs) / 2).toFixed(2)} ms per plain fetch`,
    );
    console.log(
      `baseline: ${baselinePerSecond.toFixed(0)} plain fetch POSTs/s to the same receiver, same concurrency (${before.perSecond.toFixed(0)} before the drain, ${after.perSecond.toFixed(0)} after)`,
    );
    console.log(`ratio:    ${(perSecond / baselinePerSecond).toFixed(2)} of the baseline`);
  } finally {
    receiver.close();
  }
}
