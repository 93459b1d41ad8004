// The subscriptions baseline: a bare `ws` server in its own process that sends one payload to every
// connected client. Run with --expose-gc. stdout, JSON lines: { type: 'listening', port }, then one
// answer per command. stdin commands: { type: 'memory' } -> { type: 'memory', connections, rss, heapUsed }
// (after full GCs); { type: 'broadcast', payload } -> { type: 'sent', sentAt } (epoch ms when sending
// began); { type: 'close' } ends the process.
import readline from 'node:readline';
import { WebSocketServer } from 'ws';

const epochNow = () => performance.timeOrigin + performance.now();
const say = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

const server = new WebSocketServer({ host: '127.0.0.1', port: 0 }, () =>
  say({ type: 'listening', port: server.address().port }),
);

/** As the bench reads the app's memory: three collections, each followed by a moment for freed pages to go back. */
async function settledMemory() {
  for (let pass = 0; pass < 3; pass += 1) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return process.memoryUsage();
}

readline.createInterface({ input: process.stdin }).on('line', async (line) => {
  const command = JSON.parse(line);
  if (command.type === 'memory') {
    const { rss, heapUsed } = await settledMemory();
    say({ type: 'memory', connections: server.clients.size, rss, heapUsed });
  } else if (command.type === 'broadcast') {
    const sentAt = epochNow();
    for (const client of server.clients) client.send(command.payload);
    say({ type: 'sent', sentAt });
  } else if (command.type === 'close') {
    for (const client of server.clients) client.terminate();
    server.close(() => process.exit(0));
  }
});
