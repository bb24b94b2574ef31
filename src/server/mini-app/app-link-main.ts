import { sign } from "@tma.js/init-data-node";
import { config as loadDotenv } from "dotenv";
import { INIT_DATA_MAX_AGE_S } from "./auth.js";

/**
 * `npm run app-link -- <USER_ID> [minutes]`: a link that opens the shop app in an ordinary browser,
 * for a trial on the machine the bot runs on, as Telegram would open it for that user: the page at
 * `http://127.0.0.1:PORT/app/` with launch parameters in the fragment and init data signed with
 * BOT_TOKEN (read from the environment or .env, as the bot reads them).
 *
 * "Valid for N minutes" is the bot's own rule, not a promise of this script: the bot refuses init
 * data signed more than 24 hours ago, so the link is signed as if Telegram had signed it
 * 24 hours minus N minutes ago, and the bot stops accepting it N minutes from now.
 */

/** Telegram's light theme, as its Android client passes it. */
const LIGHT_THEME = {
  bg_color: "#ffffff",
  text_color: "#000000",
  hint_color: "#707579",
  link_color: "#3390ec",
  button_color: "#3390ec",
  button_text_color: "#ffffff",
  secondary_bg_color: "#f1f1f4",
};

const DEFAULT_MINUTES = 10;
const DEFAULT_PORT = 8080;
const MAX_MINUTES = INIT_DATA_MAX_AGE_S / 60;

interface AppLink {
  url: string;
  /** When the bot stops accepting the link's init data. */
  validUntil: Date;
}

/** The link for `userId`, accepted by the bot with this `botToken` until `minutes` after `now`. */
function appLink(opts: { botToken: string; userId: number; minutes: number; port: number; now?: number }): AppLink {
  const now = opts.now ?? Date.now();
  const signedAt = new Date(now - (INIT_DATA_MAX_AGE_S - opts.minutes * 60) * 1000);
  const initData = sign(
    { user: { id: opts.userId, first_name: `User ${opts.userId}` }, query_id: `trial${opts.userId}` },
    opts.botToken,
    signedAt,
  );
  const fragment = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppThemeParams: JSON.stringify(LIGHT_THEME),
    tgWebAppPlatform: "web",
    tgWebAppVersion: "8.0",
  });
  return {
    url: `http://127.0.0.1:${opts.port}/app/#${fragment.toString()}`,
    // auth_date has whole seconds: the bot counts from there.
    validUntil: new Date((Math.floor(signedAt.getTime() / 1000) + INIT_DATA_MAX_AGE_S) * 1000),
  };
}

/** Stops with a short message and exit code 1: no stack trace for a mistake in the command. */
function fail(message: string): never {
  process.stderr.write(`app-link: ${message}\n`);
  process.exit(1);
}

function main(args: string[], env: NodeJS.ProcessEnv): void {
  const usage = `usage: npm run app-link -- <USER_ID> [minutes, 1 to ${MAX_MINUTES}, default ${DEFAULT_MINUTES}]`;
  const botToken = env.BOT_TOKEN?.trim() ?? "";
  if (botToken === "")
    fail("BOT_TOKEN is not set (in the environment or .env): the link is signed with the bot's token.");
  const [rawId, rawMinutes] = args;
  if (rawId === undefined || !/^[1-9][0-9]{0,15}$/.test(rawId))
    fail(`give the Telegram user id of an admin or a reseller (digits only).\n${usage}`);
  const minutes = rawMinutes === undefined ? DEFAULT_MINUTES : Number(rawMinutes);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_MINUTES)
    fail(`minutes must be a whole number from 1 to ${MAX_MINUTES} (the bot's limit is 24 h).\n${usage}`);
  const rawPort = env.PORT?.trim() ?? "";
  const port = rawPort === "" ? DEFAULT_PORT : Number(rawPort);
  if (!/^[0-9]*$/.test(rawPort) || port < 1 || port > 65535) fail(`PORT must be a port number, not "${rawPort}".`);

  const link = appLink({ botToken, userId: Number(rawId), minutes, port });
  process.stdout.write(`${link.url}\n`);
  process.stderr.write(
    `The shop app as user ${rawId} sees it, until ${link.validUntil.toLocaleTimeString()} (${minutes} min). ` +
      `Open it in a browser while the bot runs here with PORT=${port} and WEBAPP_URL set.\n`,
  );
}

loadDotenv({ quiet: true });
main(process.argv.slice(2), process.env);
