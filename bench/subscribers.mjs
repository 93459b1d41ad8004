// Subscribers in their own process, so their CPU is not charged to the server they measure.
// argv[2]: JSON { url, count, protocol: 'graphql-ws' | 'plain', connectionParams?, query?, openAtOnce? }.
// 'graphql-ws' speaks graphql-transport-ws (connection_init with connectionParams, then one subscribe);
// 'plain' only opens the socket. Every data message is a delivery.
// stdout, JSON lines: { type: 'ready', connected } once every socket is open (and subscribed), then
// { type: 'round', deliveredAt: [epoch ms per socket], sample } each time every socket received one
// more delivery. stdin: { type: 'close' } closes every socket and exits.
import readline from 'node:readline';
import WebSocket from 'ws';

const options = JSON.parse(process.argv[2]);
const epochNow = () => performance.timeOrigin + performance.now();
const say = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const fail = (reason) => {
  process.stderr.write(`subscribers: ${reason}\n`);
  process.exit(1);
};

const sockets = [];
/** Deliveries of the round in progress: one arrival time per socket, by socket index. */
let arrivals = new Map();
let sample = null;

function delivered(index, text) {
  if (arrivals.has(index)) fail(`socket ${index} received a second message within one round`);
  arrivals.set(index, epochNow());
  sample ??= text;
  if (arrivals.size < options.count) return;
  say({ type: 'round', deliveredAt: [...arrivals.values()], sample });
  arrivals = new Map();
  sample = null;
}

function open(index) {
  return new Promise((resolve, reject) => {
    const graphqlWs = options.protocol === 'graphql-ws';
    const socket = new WebSocket(options.url, graphqlWs ? 'graphql-transport-ws' : undefined);
    sockets.push(socket);
    socket.on('error', reject);
    socket.on('close', (code, reason) => {
      if (!closing) fail(`socket ${index} closed (${code} ${reason})`);
    });
    socket.on('open', () => {
      if (!graphqlWs) return resolve();
      socket.send(JSON.stringify({ type: 'connection_init', payload: options.connectionParams ?? {} }));
    });
    socket.on('message', (data) => {
      const text = data.toString('utf8');
      if (!graphqlWs) return delivered(index, text);
      const message = JSON.parse(text);
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: options.query } }));
        resolve();
      } else if (message.type === 'next') {
        if (message.payload.errors) fail(`subscription error: ${JSON.stringify(message.payload.errors)}`);
        delivered(index, text);
      } else if (message.type === 'ping') {
        socket.send(JSON.stringify({ type: 'pong' }));
      } else if (message.type === 'error' || message.type === 'complete') {
        fail(`subscription ended: ${text}`);
      }
    });
  });
}

let closing = false;
const atOnce = options.openAtOnce ?? 50;
for (let first = 0; first < options.count; first += atOnce) {
  const batch = Array.from({ length: Math.min(atOnce, options.count - first) }, (_, offset) => open(first + offset));
  await Promise.all(batch).catch((error) => fail(error.message));
}
say({ type: 'ready', connected: sockets.length });

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (JSON.parse(line).type !== 'close') return;
  closing = true;
  for (const socket of sockets) socket.close(1000);
  setTimeout(() => process.exit(0), 200);
});
