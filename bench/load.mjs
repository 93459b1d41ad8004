// A load generator in its own process, so its CPU is not charged to the server it measures.
// argv[2]: JSON { url, method, headers, concurrency, seconds, body?, chargeBodies?, perClient? }. Prints JSON { requests, perSecond, statuses, p50, p99 }.
import http from 'node:http';

const options = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
const url = new URL(options.url);
let counter = 0;
// This run's own mark in the charge emails: a warm-up run's charges are not 60-second duplicates of the measured run's.
const run = `${process.pid}-${Date.now().toString(36)}`;
const statuses = {};
const latencies = [];

const bodyOf = () => {
  if (!options.chargeBodies) return options.body ?? '';
  counter += 1;
  // Every charge differs (amount and email), so none is a 60-second duplicate of another, in this run or an earlier one.
  return JSON.stringify({
    amount: (1000 + counter) / 100,
    currency: 'usd',
    email: `load-${run}-${counter}@example.com`,
    card: { number: '4242424242424242', expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 2, cvv: '123' },
  });
};

const send = (body, headers = options.headers) =>
  new Promise((resolve) => {
    const started = performance.now();
    const request = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: options.method,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
          latencies.push(performance.now() - started);
          resolve();
        });
      },
    );
    request.on('error', () => {
      statuses.error = (statuses.error ?? 0) + 1;
      resolve();
    });
    request.end(body);
  });

const deadline = performance.now() + options.seconds * 1000;
const started = performance.now();
await Promise.all(
  Array.from({ length: options.concurrency }, async (_, index) => {
    const own = options.perClient?.[index % options.perClient.length];
    while (performance.now() < deadline) await (own ? send(own.body, own.headers) : send(bodyOf()));
  }),
);
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
console.log(
  JSON.stringify({
    requests: latencies.length,
    perSecond: latencies.length / elapsed,
    statuses,
    p50: at(0.5),
    p99: at(0.99),
  }),
);
agent.destroy();
