import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../src/config';
import { EmbeddedDatabase, EmbeddedPostgresOptions, startEmbeddedPostgres } from '../../../src/db/embedded';
import { freePort } from '../../support/process';

/**
 * A PostgreSQL of the suite's own (the embedded one `npm start` runs, src/db/embedded.ts), which a
 * test may stop and start again under load: same data, same port, same URL.
 */
export class SuiteCluster {
  stops = 0;
  private running: EmbeddedDatabase | null = null;
  private clusterDir = '';

  private constructor(
    private readonly options: EmbeddedPostgresOptions,
    readonly url: string,
  ) {}

  static async start(): Promise<SuiteCluster> {
    const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
    const options: EmbeddedPostgresOptions = {
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-reliability-pg-')),
      port: await freePort(),
      systemDir: config.systemDir,
      systemUser: config.embeddedPgSystemUser,
      database: 'tessera_reliability',
      persistent: true,
      settings: { max_connections: '200', fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
    };
    const first = await startEmbeddedPostgres(options);
    const cluster = new SuiteCluster(options, first.url);
    cluster.running = first;
    cluster.clusterDir = first.clusterDir;
    return cluster;
  }

  get up(): boolean {
    return this.running !== null;
  }

  /** A fast shutdown (open transactions rolled back, every connection closed). */
  async stop(): Promise<void> {
    if (!this.running) return;
    const running = this.running;
    this.running = null;
    this.stops += 1;
    await running.stop();
  }

  /** Starts the same cluster again (nothing to initialise: its data is kept). */
  async restart(): Promise<void> {
    if (this.running) return;
    this.running = await startEmbeddedPostgres({ ...this.options, create: false });
  }

  /** Stops it for good and removes its files. */
  async destroy(): Promise<void> {
    await this.stop();
    fs.rmSync(this.clusterDir, { recursive: true, force: true });
    fs.rmSync(this.options.dataDir, { recursive: true, force: true });
  }
}
