import type { Feature } from "./feature.js";
import { apiKeysFeature } from "./features/api-keys.js";
import { balanceFeature } from "./features/balance.js";
import { broadcastFeature, startedUsersFeature } from "./features/broadcast.js";
import { catalogFeature } from "./features/catalog.js";
import { depositRequestsFeature } from "./features/deposit-requests.js";
import { exportFeature } from "./features/export.js";
import { fallbackFeature } from "./features/fallback.js";
import { helpFeature } from "./features/help.js";
import { historyFeature } from "./features/history.js";
import { insightsFeature } from "./features/insights.js";
import { languageFeature } from "./features/language.js";
import { membershipFeature } from "./features/membership.js";
import { miniAppFeature } from "./features/mini-app.js";
import { orderFeature } from "./features/order.js";
import { pauseFeature } from "./features/pause.js";
import { pendingFeature } from "./features/pending/pending.js";
import { pricelistFeature } from "./features/pricelist.js";
import { pricesFeature } from "./features/prices.js";
import { reportFeature } from "./features/report.js";
import { resellersFeature } from "./features/resellers.js";
import { startFeature } from "./features/start.js";
import { statusFeature } from "./features/status.js";
import { usersFeature } from "./features/users.js";

/**
 * The bot's features. This order is the order of the command menus and of the /start and /help
 * lists; where a feature's handlers run is its stages' business (feature.ts: STAGES), not this
 * list's. A new command: a feature file (its commands, the services it needs, its handlers), its
 * texts in both locales/*.ftl, and a line here.
 */
export const FEATURES: readonly Feature[] = [
  startedUsersFeature,
  startFeature,
  orderFeature,
  pricelistFeature,
  balanceFeature,
  historyFeature,
  statusFeature,
  languageFeature,
  helpFeature,
  reportFeature,
  insightsFeature,
  exportFeature,
  pendingFeature,
  usersFeature,
  resellersFeature,
  depositRequestsFeature,
  apiKeysFeature,
  pricesFeature,
  catalogFeature,
  pauseFeature,
  broadcastFeature,
  miniAppFeature,
  membershipFeature,
  fallbackFeature,
];
