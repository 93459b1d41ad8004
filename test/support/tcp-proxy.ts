import net from 'node:net';
import path from 'node:path';

/**
 * A TCP proxy between a server and its PostgreSQL that a test can cut and restore: cutting closes
 * every connection through it and refuses new ones (ECONNREFUSED, as a stopped PostgreSQL does);
 * restoring listens again on the same port. Deterministic, unlike restarting PostgreSQL itself.
 */
export interface TcpProxy {
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  urlFor(databaseUrl: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Where a PostgreSQL URL points: a TCP address, or the Unix socket of a host that is a directory. */
function upstreamOf(databaseUrl: string): net.NetConnectOpts {
  const url = new URL(databaseUrl);
  const host = decodeURIComponent(url.hostname);
  const port = Number(url.port || 5432);
  return host.startsWith('/') ? { path: path.join(host, `.s.PGSQL.${port}`) } : { host, port };
}

export async function startTcpProxy(databaseUrl: string): Promise<TcpProxy> {
  const upstream = upstreamOf(databaseUrl);
  const open = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.on('error', () => undefined);
  };
  const onConnection = (client: net.Socket) => {
    const server = net.connect(upstream);
    track(client);
    track(server);
    client.pipe(server).pipe(client);
    client.once('close', () => server.destroy());
    server.once('close', () => client.destroy());
  };

  let listener = net.createServer(onConnection);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const port = (listener.address() as net.AddressInfo).port;
  const stop = async () => {
    const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
    for (const socket of open) socket.destroy();
    await closed;
  };

  return {
    urlFor(url) {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    cut: stop,
    async restore() {
      // Already listening: nothing to restore (a second listener would fail on the port, and the
      // first, no longer referenced, would never be closed).
      if (listener.listening) return;
      listener = net.createServer(onConnection);
      await new Promise<void>((resolve, reject) => {
        listener.once('error', reject);
        listener.listen(port, '127.0.0.1', resolve);
      });
    },
    close: async () => (listener.listening ? stop() : undefined),
  };
}
