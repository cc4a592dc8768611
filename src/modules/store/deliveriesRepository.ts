import type { Knex } from 'knex';
import { isUniqueViolation } from '../../db/connect';

/** A store webhook delivery seen, by what identifies its content (unique per account). */
interface DeliveryRow {
  account_id: string;
  content_key: string;
  /** The store's own id of the delivery ('' when it gave none): diagnostics only, not unique. */
  delivery_id: string;
  topic: string;
  resource_id: string | null;
  received_at: string;
}

const table = (db: Knex) => db<DeliveryRow>('shop_webhook_deliveries');

export const webhookDeliveriesRepository = {
  /** Records a delivery; false when its content key was recorded before (a store's redelivery): it is not applied again. */
  recordFirst: async (
    db: Knex,
    delivery: { accountId: string; contentKey: string; deliveryId: string | null; topic: string; resourceId: string | null },
    now: string,
  ): Promise<boolean> => {
    try {
      await table(db).insert({
        account_id: delivery.accountId,
        content_key: delivery.contentKey.slice(0, 191),
        delivery_id: (delivery.deliveryId ?? '').slice(0, 64),
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
