import type { Api } from "grammy";
import type { Logger } from "../logger.js";
import { helpLines, menuCommands, type Feature } from "./feature.js";
import type { Texts } from "./i18n.js";
import type { CommandMenus } from "./services.js";

type Scope = NonNullable<Parameters<Api["setMyCommands"]>[1]>["scope"];

/**
 * The command menus and the command list of /start and /help, derived from the features' own
 * descriptions, each in English and, for
 * Indonesian Telegram clients, in Bahasa Indonesia (`command-<name>` in locales/). A chat that has
 * never opened the bot cannot get a chat-scoped menu: that is logged, not fatal.
 */
export function commandMenus(
  api: Api,
  texts: Texts,
  logger: Logger,
  features: readonly Feature[],
  /** The Mini App (WEBAPP_URL): each admin's chat gets a menu button that opens it, in their language. */
  miniApp?: { url: string; languageOf: (userId: number) => Promise<"en" | "id"> },
): CommandMenus {
  const everyone = menuCommands(features, "everyone");
  const reseller = menuCommands(features, "reseller");
  const admin = menuCommands(features, "admin");
  const menu = (lang: "en" | "id", names: readonly string[]) =>
    names.map((command) => ({ command, description: texts.t(lang, `command-${command}`) }));
  async function set(scope: Scope, names: readonly string[]) {
    for (const lang of ["en", "id"] as const) {
      try {
        await api.setMyCommands(menu(lang, names), { scope, ...(lang === "id" ? { language_code: "id" } : {}) });
      } catch (err) {
        logger.warn({ scope, lang, err }, "command menu not set");
      }
    }
  }
  /** The Mini App's menu button in an admin's or a reseller's private chat, in their language. */
  async function menuButton(chat_id: number) {
    if (miniApp === undefined) return;
    const text = texts.t(await miniApp.languageOf(chat_id), "app-menu-button");
    await api
      .setChatMenuButton({ chat_id, menu_button: { type: "web_app", text, web_app: { url: miniApp.url } } })
      .catch((err: unknown) => logger.warn({ chatId: chat_id, err }, "mini app menu button not set"));
  }
  return {
    /** Everyone sees the user commands; each admin and reseller (in their private chat) their own too. */
    async setAll(people) {
      await set({ type: "default" }, everyone);
      for (const chat_id of people.resellers) await set({ type: "chat", chat_id }, reseller);
      for (const chat_id of people.admins) await set({ type: "chat", chat_id }, admin);
      for (const chat_id of [...people.admins, ...people.resellers]) await menuButton(chat_id);
      // ADMIN_CHAT_ID's chat: there, each admin (and only they) sees the admin commands.
      const chat_id = people.adminChat;
      if (chat_id !== undefined)
        for (const user_id of people.admins) await set({ type: "chat_member", chat_id, user_id }, admin);
    },
    /** A reseller gets /saldo in their menu, and the shop app's button (their own pages). */
    async reseller(userId) {
      await set({ type: "chat", chat_id: userId }, reseller);
      await menuButton(userId);
    },
    async admin(userId) {
      await set({ type: "chat", chat_id: userId }, admin);
      await menuButton(userId);
    },
    helpLines: (role) => helpLines(features, role),
  };
}
