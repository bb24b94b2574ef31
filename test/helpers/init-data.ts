import { sign } from "@tma.js/init-data-node";

export interface InitDataUser {
  id: number;
  first_name: string;
  language_code?: string;
}

/**
 * Init data as Telegram hands it to a Mini App: the user, a query id, the auth date, signed with
 * the bot token (HMAC-SHA256 of "WebAppData"), as the raw query string the page passes on.
 * `ageS`: how long ago Telegram signed it.
 */
export function signInitData(user: InitDataUser, botToken: string, ageS = 0, now = Date.now()): string {
  return sign({ user, query_id: `AAq${user.id}` }, botToken, new Date(now - ageS * 1000));
}
