import { rmSync } from 'node:fs';
import { SERVICE_DIR, SUITE_FILE, hasRealStore } from './config';
import { purgeStore } from './realStore';
import { stopService } from './service';

/** The service stopped, then the store and the service's files removed (RS_KEEP=1 keeps them to look at). */
export default async function globalTeardown(): Promise<void> {
  if (!hasRealStore()) return;
  await stopService();
  if (process.env.RS_KEEP === '1') return;
  purgeStore();
  // The service's database and key, and the token of its account.
  rmSync(SERVICE_DIR, { recursive: true, force: true });
  rmSync(SUITE_FILE, { force: true });
}
