// Every route module, in one list. A new resource adds one line here.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';
import { registerAuthRoutes } from './auth.ts';
import { registerCommentRoutes } from './comments.ts';
import { registerEventRoutes } from './events.ts';
import { registerHistoryRoutes } from './history.ts';
import { registerImageRoutes } from './images.ts';
import { registerNoteRoutes } from './notes.ts';
import { registerPostsRoutes } from './posts.ts';
import { registerPrefsRoutes } from './prefs.ts';
import { registerSearchRoutes } from './search.ts';
import { registerSettingsRoutes } from './settings.ts';
import { registerSiteHealthRoutes } from './site-health.ts';
import { registerSyncRoutes } from './sync.ts';
import { registerTravelRoutes } from './travel.ts';
import { registerTrashRoutes } from './trash.ts';
import { registerUiRoutes } from './ui.ts';
import { registerVersionRoutes } from './versions.ts';
import { registerWebmentionRoutes } from './webmention.ts';

export type RegisterRoutes = (app: Polka, ctx: AdminContext) => void;

export const routeModules: RegisterRoutes[] = [
  registerAuthRoutes,
  registerNoteRoutes,
  registerTrashRoutes,
  registerVersionRoutes,
  registerEventRoutes,
  registerHistoryRoutes,
  // travel before sync: /api/sync/travel is its own resource
  registerTravelRoutes,
  registerSyncRoutes,
  registerSettingsRoutes,
  registerPrefsRoutes,
  registerPostsRoutes,
  registerUiRoutes,
  registerSearchRoutes,
  registerImageRoutes,
  registerCommentRoutes,
  registerWebmentionRoutes,
  registerSiteHealthRoutes,
];
