import { sign } from "@tma.js/init-data-node";
import { createHmac } from "node:crypto";

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

/**
 * Init data in the form Telegram clients older than Bot API 8.0 send: no `signature` field, only
 * `hash`, computed as Telegram documents it (written out here, not by the package the bot uses):
 * HMAC-SHA256 of the data-check-string (every other field as `key=value`, sorted, joined by "\n")
 * with the key HMAC-SHA256("WebAppData", bot token). Without `user`: init data that has none.
 */
export function signPre8InitData(user: InitDataUser | undefined, botToken: string, ageS = 0, now = Date.now()): string {
  const fields: Record<string, string> = {
    auth_date: String(Math.floor((now - ageS * 1000) / 1000)),
    query_id: `AAq${user?.id ?? 0}`,
    ...(user === undefined ? {} : { user: JSON.stringify(user) }),
  };
  const dataCheckString = Object.entries(fields)
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n");
  const secret = createHmac("sha256", "WebAppData").update(botToken).digest();
  const hash = createHmac("sha256", secret).update(dataCheckString).digest("hex");
  return new URLSearchParams({ ...fields, hash }).toString();
}
