/**
 * The framework's floor: a bare grammY bot on the same runner, one handler that replies (a button
 * tap is answered, then replied to). bench/processes.ts compiles it to plain JavaScript (esbuild, not
 * bundled: it loads grammY from node_modules like dist/ does) and starts it with BOT_TOKEN and
 * BOT_API_ROOT of a fake Bot API.
 */
import { run } from "@grammyjs/runner";
import { Bot } from "grammy";

const bot = new Bot(process.env.BOT_TOKEN!, { client: { apiRoot: process.env.BOT_API_ROOT! } });
bot.on("callback_query", async (ctx) => {
  await ctx.answerCallbackQuery();
  await ctx.reply("ok");
});
bot.on("message", (ctx) => ctx.reply("ok"));
await bot.init();
const runner = run(bot);
process.stdout.write("bare bot started\n");
process.once("SIGTERM", () => void runner.stop().then(() => process.exit(0)));
// Like the bot's launcher watch: gone with the bench that started it, even if that was killed.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 500).unref();
