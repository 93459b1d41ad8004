import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { Config } from './config';
import { SecretBox, safeEqual } from './domain/shared/crypto';
import { ConfigError, StartupError, dataDirUnwritable } from './startup-error';

export interface Secrets {
  masterKey: string;
  jwtSecret: string;
}

/** Secrets as resolved at start, before anything is written: where the master key came from, and how to keep them. */
export interface ResolvedSecrets extends Secrets {
  /** Where the master key comes from, for the line that refuses a key the database does not know. */
  masterKeyOrigin: string;
  /** Writes generated secrets into `<dataDir>/secrets.json`; a no-op when nothing was generated. */
  persist(): void;
}

/**
 * The master key (encrypts API secrets) and the JWT signing secret. Taken from the environment
 * when set; otherwise read from `<dataDir>/secrets.json`, or generated for it (mode 0600, written
 * by `persist` once the database has accepted the key: see verifyMasterKey). Production
 * deployments must set both variables.
 *
 * `generate: false` (the CLI and workers, which never make a key): a master key found nowhere is
 * refused with one line naming where it was looked for; a missing JWT secret lives only in memory
 * (they sign no tokens that outlive them), and `persist` writes nothing.
 */
export function resolveSecrets(config: Config, { generate = true }: { generate?: boolean } = {}): ResolvedSecrets {
  if (config.masterKey && config.jwtSecret) {
    return {
      masterKey: config.masterKey,
      jwtSecret: config.jwtSecret,
      masterKeyOrigin: 'set in TESSERA_MASTER_KEY',
      persist: () => undefined,
    };
  }
  if (process.env.NODE_ENV === 'production') {
    throw new ConfigError('TESSERA_MASTER_KEY and JWT_SECRET must be set in production');
  }
  const file = path.join(config.dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (fs.existsSync(file)) {
    try {
      stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Secrets>;
    } catch (error) {
      throw new StartupError(
        `${file} cannot be read (${(error as Error).message}). Restore it from a backup; without it stored API secrets cannot be decrypted.`,
      );
    }
  }
  if (!generate && !config.masterKey && !stored.masterKey) {
    throw new StartupError(
      `No master key: TESSERA_MASTER_KEY is not set and ${file} does not exist. Set TESSERA_MASTER_KEY to the server's key, or TESSERA_DATA_DIR to the server's data directory.`,
    );
  }
  const secrets: Secrets = {
    masterKey: config.masterKey ?? stored.masterKey ?? crypto.randomBytes(32).toString('base64'),
    jwtSecret: config.jwtSecret ?? stored.jwtSecret ?? crypto.randomBytes(32).toString('base64'),
  };
  const masterKeyOrigin = config.masterKey
    ? 'set in TESSERA_MASTER_KEY'
    : stored.masterKey
      ? `read from ${file}`
      : `generated just now, because ${file} does not exist, and not saved`;
  return {
    ...secrets,
    masterKeyOrigin,
    persist: () => {
      if (!generate) return;
      if (stored.masterKey === secrets.masterKey && stored.jwtSecret === secrets.jwtSecret) return;
      try {
        fs.mkdirSync(config.dataDir, { recursive: true });
        fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
      } catch (error) {
        throw dataDirUnwritable(config.dataDir, error);
      }
    },
  };
}

const KEY_CHECK_LABEL = 'tessera:master-key-check:v1';

/**
 * Refuses a master key that cannot open the secrets this database holds, with one line naming the
 * fix. The database keeps a check value of its key (HMAC of a fixed label), written on first use;
 * a database sealed before the check existed is judged by opening one stored API secret first.
 * Without this, a process with another key (a CLI run without the server's data directory, which
 * generates a new key) starts, answers 500 on every token exchange and cannot sign webhooks.
 */
export async function verifyMasterKey(dataSource: DataSource, secrets: ResolvedSecrets): Promise<void> {
  const [table] = await dataSource.query<Array<{ present: boolean }>>(
    `SELECT to_regclass('master_key_check') IS NOT NULL AS present`,
  );
  if (!table.present) return; // not migrated yet (`tessera migrate`): the next start checks
  const box = new SecretBox(secrets.masterKey);
  const expected = box.mac(KEY_CHECK_LABEL);
  const refuse = () =>
    new StartupError(
      `The master key does not open the secrets stored in this database: it is not the key they were sealed with; this one was ${secrets.masterKeyOrigin}. ` +
        "Set TESSERA_MASTER_KEY to the key the server uses, or run with the server's data directory (TESSERA_DATA_DIR, whose secrets.json holds its generated key).",
    );
  const stored = async (): Promise<string | null> =>
    (await dataSource.query<Array<{ check_value: string }>>(`SELECT check_value FROM master_key_check WHERE id = 1`))[0]
      ?.check_value ?? null;

  let checkValue = await stored();
  if (checkValue === null) {
    const [sample]: Array<{ secret_ciphertext: string }> = await dataSource.query(
      `SELECT secret_ciphertext FROM api_credentials ORDER BY created_at LIMIT 1`,
    );
    if (sample) {
      try {
        box.open(sample.secret_ciphertext);
      } catch {
        throw refuse();
      }
    }
    await dataSource.query(
      `INSERT INTO master_key_check (id, check_value) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`,
      [expected],
    );
    checkValue = await stored(); // another process may have recorded its key first
  }
  if (!checkValue || !safeEqual(checkValue, expected)) throw refuse();
}
