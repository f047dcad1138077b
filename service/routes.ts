import type { RouteSpec } from './http/route-table.js';
import { userRoutes } from './users/routes.js';
import { unusedUsersRoutes } from './users/unused-users-route.js';
import { sessionRoutes } from './sessions/routes.js';
import { avatarRoutes } from './avatars/routes.js';
import { uploadRoutes } from './avatars/upload-route.js';
import { customizationRoutes } from './customization/routes.js';
import { assetRoutes } from './assets/routes.js';
import { webhookLogRoutes } from './events/routes.js';
import { diagnosticsRoutes } from './processing/diagnostics-route.js';
import { exportRoutes } from './exports/routes.js';
import { renderRoutes } from './renders/routes.js';
import { fileRoutes } from './files/routes.js';

/** The whole HTTP surface of the service, one resource module at a time. */
export const ROUTES: readonly RouteSpec[] = [
  ...userRoutes,
  ...unusedUsersRoutes,
  ...sessionRoutes,
  ...avatarRoutes,
  ...uploadRoutes,
  ...customizationRoutes,
  ...assetRoutes,
  ...webhookLogRoutes,
  ...diagnosticsRoutes,
  ...exportRoutes,
  ...renderRoutes,
  ...fileRoutes,
];
