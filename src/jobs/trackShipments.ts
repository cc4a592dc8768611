import { trackShipments } from '../modules/store/tracking';
import type { Job } from './types';

export const trackShipmentsJob: Job = {
  name: 'track-shipments',
  schedule: '*/30 * * * *',
  leaseSeconds: 1800,
  description: "Read shipment tracking of paid store orders from the store and fill the orders' carrier and tracktrace",
  run: (ctx, signal) => trackShipments(ctx, signal),
};
