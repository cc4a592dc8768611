import type { RouteSpec } from '../../http/route';

// Filled in by this module's work in progress.
export const linkRoutes: RouteSpec[] = [];
