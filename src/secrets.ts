import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Config } from './config';
import { ConfigError, StartupError, dataDirUnwritable } from './startup-error';

export interface Secrets {
  masterKey: string;
  jwtSecret: string;
}

/**
 * The master key (encrypts API secrets) and the JWT signing secret. Taken from the environment
 * when set; otherwise generated once into `<dataDir>/secrets.json` (mode 0600), which is what the
 * embedded default uses. Production deployments must set both variables.
 */
export function resolveSecrets(config: Config): Secrets {
  if (config.masterKey && config.jwtSecret) return { masterKey: config.masterKey, jwtSecret: config.jwtSecret };
  if (process.env.NODE_ENV === 'production') {
    throw new ConfigError('TESSERA_MASTER_KEY and JWT_SECRET must be set in production');
  }
  const file = path.join(config.dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (fs.existsSync(file)) {
    try {
      stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Secrets>;
    } catch (error) {
      throw new StartupError(`${file} cannot be read (${(error as Error).message}). Restore it from a backup; without it stored API secrets cannot be decrypted.`);
    }
  }
  const secrets: Secrets = {
    masterKey: config.masterKey ?? stored.masterKey ?? crypto.randomBytes(32).toString('base64'),
    jwtSecret: config.jwtSecret ?? stored.jwtSecret ?? crypto.randomBytes(32).toString('base64'),
  };
  if (stored.masterKey !== secrets.masterKey || stored.jwtSecret !== secrets.jwtSecret) {
    try {
      fs.mkdirSync(config.dataDir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    } catch (error) {
      throw dataDirUnwritable(config.dataDir, error);
    }
  }
  return secrets;
}
