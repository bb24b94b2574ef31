import type { Api } from "grammy";
import type { I18n } from "@grammyjs/i18n";
import type { Logger } from "../logger.js";

const USER_COMMANDS = ["start", "order", "cancel", "balance", "history", "language", "help"] as const;
const ADMIN_COMMANDS = [...USER_COMMANDS, "report", "pending", "settle", "users", "allow", "deny"] as const;

/**
 * The command menus: everyone sees the user commands, each admin (in their private chat) the
 * admin ones too; each in English and, for Indonesian Telegram clients, in Bahasa Indonesia.
 * An admin who has never opened the bot cannot get a chat-scoped menu: that is logged, not fatal.
 */
export async function setCommandMenus(
  api: Api,
  texts: I18n,
  adminIds: readonly number[],
  logger: Logger,
): Promise<void> {
  const menu = (lang: "en" | "id", names: readonly string[]) =>
    names.map((command) => ({ command, description: texts.t(lang, `command-${command}`) }));
  type Scope = NonNullable<Parameters<Api["setMyCommands"]>[1]>["scope"];
  const targets: Array<{ scope: Scope; names: readonly string[] }> = [
    { scope: { type: "default" }, names: USER_COMMANDS },
    ...adminIds.map((chat_id) => ({ scope: { type: "chat" as const, chat_id }, names: ADMIN_COMMANDS })),
  ];
  for (const { scope, names } of targets) {
    for (const lang of ["en", "id"] as const) {
      try {
        await api.setMyCommands(menu(lang, names), { scope, ...(lang === "id" ? { language_code: "id" } : {}) });
      } catch (err) {
        logger.warn({ scope, lang, err }, "command menu not set");
      }
    }
  }
}
