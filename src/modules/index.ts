import type { RouteSpec } from '../http/route';
import { auditRoutes } from './audit/routes';
import { customerRoutes } from './customers/routes';
import { followUpRoutes } from './follow-ups/routes';
import { importRoutes } from './imports/routes';
import { linkRoutes } from './links/routes';
import { mandateRoutes } from './mandates/routes';
import { orderRoutes } from './orders/routes';
import { paymentRoutes } from './payments/routes';
import { portalRoutes } from './portal/routes';
import { productRoutes } from './products/routes';
import { refundRoutes } from './refunds/routes';
import { reportRoutes } from './reports/routes';
import { invoiceRoutes } from './invoices/routes';
import { shopRoutes } from './store/routes';
import { syncRoutes } from './store/syncRoutes';
import { subscriptionLifecycleRoutes } from './subscriptions/lifecycleRoutes';
import { subscriptionRoutes } from './subscriptions/routes';

/** Every API operation, in the order OpenAPI lists them. */
export const apiRoutes: RouteSpec[] = [
  ...customerRoutes,
  ...mandateRoutes,
  ...portalRoutes,
  ...reportRoutes,
  ...subscriptionRoutes,
  ...subscriptionLifecycleRoutes,
  ...invoiceRoutes,
  ...shopRoutes,
  ...syncRoutes,
  ...productRoutes,
  ...paymentRoutes,
  ...refundRoutes,
  ...linkRoutes,
  ...followUpRoutes,
  ...orderRoutes,
  ...importRoutes,
  ...auditRoutes,
];
