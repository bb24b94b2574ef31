import { GrammyError, type Api } from "grammy";
import type { IssuedKey } from "../access/partners.js";
import type { Person } from "../access/people.js";
import type { Config } from "../config.js";
import type { Lang } from "../orders/order.js";
import { translator, type Texts, type Translate } from "./i18n.js";
import { nameBefore } from "./people.js";

/** The shop's API for resellers (H2H) as an admin is told about it. */
export interface H2hSettings {
  /** H2H_ENABLED: whether the API answers at all; keys can be made before it does. */
  enabled: boolean;
  /**
   * Where a reseller's system sends its orders: the shop's public address (WEBAPP_URL, the address
   * of PORT) with `/v1/transaction/partner`; undefined when the bot knows no public address.
   */
  partnerUrl: string | undefined;
}

/** The path of an order under the shop's public address (the provider interface's own path). */
const PARTNER_PATH = "v1/transaction/partner";

/** H2H_ENABLED and the address resellers order at, read from the configuration. */
export function h2hSettings(config: Pick<Config, "h2h" | "webApp">): H2hSettings {
  // The Mini App's page is `<public address>/app/`: the API is beside it, under the same address.
  const partnerUrl = config.webApp === undefined ? undefined : new URL(`../${PARTNER_PATH}`, config.webApp.url).href;
  return { enabled: config.h2h.enabled, partnerUrl };
}

/** An answer about keys, with the line that the API is off while H2H_ENABLED is not true. */
export const withH2hState = (t: Translate, h2h: H2hSettings | undefined, text: string): string =>
  h2h?.enabled === true ? text : `${text}\n\n${t("apikey-h2h-off")}`;

/** Whom a key is for, as its message names them. */
export interface KeyOwner {
  userId: number;
  person?: Person | undefined;
}

/** A key's heading: its first, and a new one (the old stops working). */
const HEADINGS = {
  live: ["apikey-issued", "apikey-rotated"],
  test: ["apikey-test-issued", "apikey-test-rotated"],
} as const;

/**
 * The message that shows a new key, the one time it is shown: mitra_id, secret_key, the signing
 * secret of its callbacks, where to send orders, and that it is not shown again; for a test key,
 * also what its destinations do. The chat's /apikey and the Mini App send the same text.
 */
export function apiKeyText(t: Translate, h2h: H2hSettings | undefined, key: IssuedKey, owner: KeyOwner): string {
  const who = { userId: String(owner.userId), name: nameBefore(owner.person) };
  const url = h2h?.partnerUrl;
  const [first, again] = key.test ? HEADINGS.test : HEADINGS.live;
  const text = [
    t(key.rotated ? again : first, who),
    t("apikey-credentials", { mitraId: key.mitraId, secretKey: key.secretKey, signingSecret: key.signingSecret }),
    url === undefined ? t("apikey-address-unknown") : t("apikey-address", { url }),
    ...(key.test ? [t("apikey-test-how", who)] : []),
    t(key.test ? "apikey-test-once" : "apikey-once", who),
  ].join("\n\n");
  return withH2hState(t, h2h, text);
}

/**
 * Sends a message that holds a key, with `protect_content` (it cannot be forwarded or saved). A
 * refusal from Telegram comes back without the payload grammY's error carries (the key's text),
 * so that no error log can hold the key.
 */
export async function sendKeyMessage<T>(method: string, chatId: number, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (!(err instanceof GrammyError)) throw err;
    const { error_code, description, parameters } = err;
    throw new GrammyError(
      `Call to '${method}' with a key failed (its text is left out)`,
      { ok: false, error_code, description, parameters },
      err.method,
      { chat_id: chatId },
    );
  }
}

/** Sends a new key to an admin's private chat, as the Mini App hands one over (never to the page). */
export type ApiKeySender = (adminId: number, lang: Lang, key: IssuedKey, owner: KeyOwner) => Promise<void>;

/** The Mini App's way to hand over a key: the bot sends the chat's own message to the admin's private chat. */
export function apiKeySender(deps: { api: Api; texts: Texts; h2h: H2hSettings }): ApiKeySender {
  return async (adminId, lang, key, owner) => {
    const text = apiKeyText(translator(deps.texts, lang), deps.h2h, key, owner);
    await sendKeyMessage("sendMessage", adminId, () => deps.api.sendMessage(adminId, text, { protect_content: true }));
  };
}
