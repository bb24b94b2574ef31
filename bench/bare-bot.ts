import { run } from "@grammyjs/runner";
import { Bot } from "grammy";

/**
 * The framework's floor: a bare grammY bot on the same runner, one handler that replies to
 * every update. Started by bench.ts with BOT_TOKEN and BOT_API_ROOT of the fake Bot API.
 */
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
