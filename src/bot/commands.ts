import type { Api } from "grammy";
import type { Texts } from "./i18n.js";
import type { Logger } from "../logger.js";

const USER_COMMANDS = [
  "start",
  "order",
  "cancel",
  "pricelist",
  "balance",
  "history",
  "status",
  "language",
  "help",
] as const;
const RESELLER_COMMANDS = [...USER_COMMANDS, "saldo"] as const;
const ADMIN_COMMANDS = [
  ...USER_COMMANDS,
  "report",
  "pending",
  "settle",
  "users",
  "allow",
  "deny",
  "deposit",
  "saldo",
  "tier",
  "price",
  "disable",
  "enable",
  "catalog",
  "pause",
  "resume",
  "broadcast",
] as const;

type Scope = NonNullable<Parameters<Api["setMyCommands"]>[1]>["scope"];

/**
 * The command menus, each in English and, for Indonesian Telegram clients, in Bahasa Indonesia.
 * A chat that has never opened the bot cannot get a chat-scoped menu: that is logged, not fatal.
 */
export function commandMenus(api: Api, texts: Texts, logger: Logger) {
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
  return {
    /** Everyone sees the user commands; each admin and reseller (in their private chat) their own too. */
    async setAll(people: {
      admins: readonly number[];
      resellers: readonly number[];
      /** ADMIN_CHAT_ID's chat: there, each admin (and only they) sees the admin commands. */
      adminChat?: number | undefined;
    }): Promise<void> {
      await set({ type: "default" }, USER_COMMANDS);
      for (const chat_id of people.resellers) await set({ type: "chat", chat_id }, RESELLER_COMMANDS);
      for (const chat_id of people.admins) await set({ type: "chat", chat_id }, ADMIN_COMMANDS);
      const chat_id = people.adminChat;
      if (chat_id !== undefined)
        for (const user_id of people.admins) await set({ type: "chat_member", chat_id, user_id }, ADMIN_COMMANDS);
    },
    /** A user who just became a reseller gets /saldo in their menu at once. */
    reseller: (userId: number) => set({ type: "chat", chat_id: userId }, RESELLER_COMMANDS),
  };
}

export type CommandMenus = ReturnType<typeof commandMenus>;
