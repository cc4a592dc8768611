import type { Knex } from 'knex';
import { isUniqueViolation } from '../../db/connect';

/** A store webhook delivery seen, by the store's delivery id (unique per account). */
interface DeliveryRow {
  account_id: string;
  delivery_id: string;
  topic: string;
  resource_id: string | null;
  received_at: string;
}

const table = (db: Knex) => db<DeliveryRow>('shop_webhook_deliveries');

export const webhookDeliveriesRepository = {
  /** Records a delivery; false when its id was recorded before (a store's redelivery): it is not applied again. */
  recordFirst: async (
    db: Knex,
    delivery: { accountId: string; deliveryId: string; topic: string; resourceId: string | null },
    now: string,
  ): Promise<boolean> => {
    try {
      await table(db).insert({
        account_id: delivery.accountId,
        delivery_id: delivery.deliveryId.slice(0, 64),
        topic: delivery.topic.slice(0, 40),
        resource_id: delivery.resourceId?.slice(0, 40) ?? null,
        received_at: now,
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  },
};
