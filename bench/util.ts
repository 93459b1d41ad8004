import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export const freePort = () => new Promise<number>((resolve) => {
  const server = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address() as net.AddressInfo;
    server.close(() => resolve(port));
  });
});

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

export interface LoadResult {
  requests: number;
  perSecond: number;
  statuses: Record<string, number>;
  p50: number;
  p99: number;
}

/** Runs bench/load.mjs in a child process against `url`. */
export function load(options: { url: string; method: string; headers: Record<string, string>; concurrency: number; seconds: number; body?: string; chargeBodies?: boolean }): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'load.mjs'), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString('utf8'); });
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`load generator exited with ${code}`))));
  });
}
