/**
 * Every endpoint group of the API, in one list. To add a group: write
 * `<name>.routes.ts` exporting a RouteGroup and add it here.
 */
import { accountsRoutes } from './accounts.routes.js';
import { avatarRoutes } from './avatar.routes.js';
import { chatRoutes } from './chat.routes.js';
import { clockRoutes } from './clock.routes.js';
import { directoryRoutes } from './directory.routes.js';
import { livechatAgentsRoutes } from './livechat-agents.routes.js';
import { livechatRoutes } from './livechat.routes.js';
import { livechatWorkspaceRoutes } from './livechat-workspace.routes.js';
import { permissionsRoutes } from './permissions.routes.js';
import { roomsRoutes } from './rooms.routes.js';
import { settingsRoutes } from './settings.routes.js';
import { usersRoutes } from './users.routes.js';
import { widgetRoutes } from './widget.routes.js';
import { fileServeRoutes, filesRoutes } from './files.routes.js';
import { businessHoursRoutes } from './business-hours.routes.js';
import { deskRoutes } from './desk.routes.js';
import { mailRoutes } from './mail.routes.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { livechatWidgetRoutes } from './livechat-widget.routes.js';
import { reportsRoutes } from './reports.routes.js';
import { ratingRoutes } from './rating.routes.js';
import type { RouteGroup } from '../types.js';

/** Groups mounted under `/api/v1`. */
export const apiV1Groups: RouteGroup[] = [settingsRoutes, permissionsRoutes, roomsRoutes, directoryRoutes, accountsRoutes, usersRoutes, livechatRoutes, livechatAgentsRoutes, livechatWorkspaceRoutes, chatRoutes, clockRoutes, filesRoutes, businessHoursRoutes, deskRoutes, mailRoutes, webhooksRoutes, livechatWidgetRoutes, reportsRoutes];

/** Groups mounted at the site root, outside `/api/v1`: the livechat widget and its sound (R6, W10) and avatars (§8.11), the rating page. */
export const siteGroups: RouteGroup[] = [widgetRoutes, avatarRoutes, fileServeRoutes, ratingRoutes];

export { platformRoutes } from './platform.routes.js';
/** The agent console at `/` (static files, outside `/api`). */
export { consoleRoutes } from './console.routes.js';
