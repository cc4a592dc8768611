import type { RouteSpec } from '../http/route';
import { customerRoutes } from './customers/routes';
import { paymentRoutes } from './payments/routes';

/** Every API operation, in the order OpenAPI lists them. */
export const apiRoutes: RouteSpec[] = [...customerRoutes, ...paymentRoutes];
