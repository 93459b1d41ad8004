import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Config } from './config';

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
    throw new Error('Configuration error: TESSERA_MASTER_KEY and JWT_SECRET must be set in production');
  }
  const file = path.join(config.dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Secrets>;
  const secrets: Secrets = {
    masterKey: config.masterKey ?? stored.masterKey ?? crypto.randomBytes(32).toString('base64'),
    jwtSecret: config.jwtSecret ?? stored.jwtSecret ?? crypto.randomBytes(32).toString('base64'),
  };
  if (stored.masterKey !== secrets.masterKey || stored.jwtSecret !== secrets.jwtSecret) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets;
}
