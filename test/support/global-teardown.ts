import fs from 'node:fs';

export default async function globalTeardown() {
  const embedded = globalThis.__TESSERA_EMBEDDED_PG__;
  if (!embedded) return;
  await embedded.db.stop();
  fs.rmSync(embedded.dataDir, { recursive: true, force: true });
}
