import { hasRealStore } from './config';
import { purgeStore } from './realStore';
import { stopService } from './service';

/** The service stopped, then the store stopped and purged (RS_KEEP=1 keeps the store to look at). */
export default async function globalTeardown(): Promise<void> {
  if (!hasRealStore()) return;
  await stopService();
  if (process.env.RS_KEEP !== '1') purgeStore();
}
