import { MAX_CALLBACK_URL, type Partner } from "../../access/partners.js";
import type { Person } from "../../access/people.js";
import { adminOnly } from "../admin.js";
import { apiKeyText, sendKeyMessage, withH2hState } from "../api-key-notice.js";
import type { FeatureContext } from "../context.js";
import { defineFeature } from "../feature.js";
import type { Translate } from "../i18n.js";
import { originOf } from "../origin.js";
import { nameBefore } from "../people.js";
import { notReseller } from "./resellers.js";

type Ctx = FeatureContext<"partners" | "apiKeys" | "access" | "people" | "h2h">;

const USER_ID = /^[1-9][0-9]{0,15}$/;

/** How many resellers with a key `/apikey` alone lists (one message holds at most 4096 characters). */
const LISTED = 40;

/** What `/apikey …` asks for. */
export type ApiKeyAsk =
  | { kind: "usage" }
  | { kind: "issue" | "off" | "status" | "test"; userId: number }
  /** `typed`: the URL as typed, `none`, or "" when nothing followed `callback`; `test`: the test key's. */
  | { kind: "callback"; userId: number; typed: string; test: boolean };

/**
 * `/apikey USER_ID [off | status | callback URL|none | test | test callback URL|none]` → what it
 * asks for (the usage for anything else).
 */
export function parseApiKeyCommand(args: string): ApiKeyAsk {
  const [id, word, ...rest] = args.trim().split(/\s+/);
  if (id === undefined || !USER_ID.test(id)) return { kind: "usage" };
  const userId = Number(id);
  const verb = word?.toLowerCase();
  if (verb === "callback") return { kind: "callback", userId, typed: rest.join(" "), test: false };
  if (verb === "test" && rest[0]?.toLowerCase() === "callback")
    return { kind: "callback", userId, typed: rest.slice(1).join(" "), test: true };
  if (rest.length > 0) return { kind: "usage" };
  if (verb === "test") return { kind: "test", userId };
  if (verb === undefined) return { kind: "issue", userId };
  if (verb === "off" || verb === "status") return { kind: verb, userId };
  return { kind: "usage" };
}

/** Answers with the line that the API is off while H2H_ENABLED is not true. */
const answer = (ctx: Ctx, text: string) => ctx.reply(withH2hState(ctx.tr, ctx.services.h2h, text));

const personOf = async (ctx: Ctx, userId: number) => (await ctx.services.people.get([userId])).get(userId);

/** The Fluent variables that name a reseller: `Budi (@budi) ` before `<code>5005</code>`. */
const whoVars = (userId: number, person: Person | undefined) => ({
  userId: String(userId),
  name: nameBefore(person),
});

/** A reseller's API access without its key: mitra_id, on or off, the callback; the test key's. */
const statusLine = (t: Translate, p: Partner, person: Person | undefined) =>
  t("apikey-status", {
    ...whoVars(p.userId, person),
    mitraId: p.mitraId,
    state: t(p.on ? "apikey-state-on" : "apikey-state-off"),
    callback: p.callbackUrl ?? t("apikey-callback-none"),
  }) +
  (p.test === undefined
    ? ""
    : `\n${t("apikey-status-test", { mitraId: p.test.mitraId, callback: p.test.callbackUrl ?? t("apikey-callback-none") })}`);

/** The usage, and the resellers that have a key (never a key itself). */
async function usage(ctx: Ctx): Promise<string> {
  const t = ctx.tr;
  const partners = await ctx.services.partners.list();
  if (partners.length === 0) return t("apikey-usage");
  const shown = partners.slice(0, LISTED);
  const people = await ctx.services.people.get(shown.map((p) => p.userId));
  const lines = [
    t("apikey-usage"),
    "",
    t("apikey-list-title"),
    ...shown.map((p) => statusLine(t, p, people.get(p.userId))),
  ];
  if (partners.length > LISTED) lines.push(t("apikey-list-more", { n: partners.length - LISTED }));
  return lines.join("\n");
}

/**
 * Creates or rotates a reseller's key and shows it once, in the admin's private chat only, with
 * `protect_content`. In a group nothing is made. An update handled a second time (its process
 * died after the key went out, or the handling failed) makes no second key: it says so instead.
 */
async function issue(ctx: Ctx, userId: number): Promise<void> {
  const t = ctx.tr;
  const chat = ctx.chat!;
  if (chat.type !== "private") return void (await answer(ctx, t("apikey-private-only", { userId: String(userId) })));
  const made = await ctx.services.apiKeys.issue(userId, originOf(ctx));
  if (made.kind === "not-reseller")
    return void (await answer(ctx, `${t("apikey-not-reseller")}\n${await notReseller(ctx, userId)}`));
  if (made.kind === "repeated") return void (await answer(ctx, t("apikey-already-shown", { userId: String(userId) })));
  const text = apiKeyText(t, ctx.services.h2h, made.key, { userId, person: await personOf(ctx, userId) });
  await sendKeyMessage("sendMessage", chat.id, () => ctx.reply(text, { protect_content: true }));
}

/**
 * `/apikey ID test`: the reseller's test key, shown once in the admin's private chat as a key is.
 * Its orders order nothing.
 */
async function issueTest(ctx: Ctx, userId: number): Promise<void> {
  const t = ctx.tr;
  const chat = ctx.chat!;
  if (chat.type !== "private")
    return void (await answer(ctx, t("apikey-test-private-only", { userId: String(userId) })));
  const made = await ctx.services.apiKeys.issueTest(userId, originOf(ctx));
  if (made.kind === "not-reseller")
    return void (await answer(ctx, `${t("apikey-not-reseller")}\n${await notReseller(ctx, userId)}`));
  if (made.kind === "repeated")
    return void (await answer(ctx, t("apikey-test-already-shown", { userId: String(userId) })));
  const [person, partner] = await Promise.all([personOf(ctx, userId), ctx.services.partners.get(userId)]);
  const off = partner?.on === false ? `\n\n${t("apikey-test-access-off", { userId: String(userId) })}` : "";
  const text = apiKeyText(t, ctx.services.h2h, made.key, { userId, person }) + off;
  await sendKeyMessage("sendMessage", chat.id, () => ctx.reply(text, { protect_content: true }));
}

/** `/apikey ID [test] callback URL|none`: the address the reseller's system (or its tests) hears late results at. */
async function callback(ctx: Ctx, userId: number, typed: string, test = false): Promise<string> {
  const t = ctx.tr;
  if (typed === "") return t("apikey-callback-usage");
  const who = whoVars(userId, await personOf(ctx, userId));
  const r = await ctx.services.apiKeys.setCallback(userId, typed, test);
  if (test && r.kind === "no-key") return t("apikey-test-none", who);
  switch (r.kind) {
    case "set":
      return t("apikey-callback-set", { ...who, url: r.url });
    case "removed":
      return t("apikey-callback-removed", who);
    case "no-key":
      return t("apikey-none", who);
    case "bad-url":
      return t("apikey-callback-bad", { typed: typed.slice(0, 100), max: MAX_CALLBACK_URL });
    case "private":
      return t("apikey-callback-private", { typed: typed.slice(0, 100) });
    case "unresolved":
      return t("apikey-callback-unresolved", { typed: typed.slice(0, 100) });
  }
}

/**
 * /apikey for admins: a reseller's key for the shop's API (H2H). The key itself is shown once, in
 * the admin's private chat, and never logged: this command's text is never written to a log line.
 */
export const apiKeysFeature = defineFeature({
  name: "api-keys",
  needs: ["partners", "apiKeys", "access", "people", "h2h"],
  commands: [{ name: "apikey", menu: ["admin"], help: [{ key: "help-apikey", for: ["admin"] }] }],
  setup(at) {
    at("buyers").command("apikey", adminOnly, async (ctx) => {
      const t = ctx.tr;
      const ask = parseApiKeyCommand(ctx.match);
      switch (ask.kind) {
        case "usage":
          return void (await answer(ctx, await usage(ctx)));
        case "issue":
          return issue(ctx, ask.userId);
        case "off": {
          const had = await ctx.services.apiKeys.turnOff(ask.userId);
          const who = whoVars(ask.userId, await personOf(ctx, ask.userId));
          return void (await answer(ctx, t(had ? "apikey-off" : "apikey-none", who)));
        }
        case "status": {
          const [partner, person] = await Promise.all([
            ctx.services.partners.get(ask.userId),
            personOf(ctx, ask.userId),
          ]);
          const text =
            partner === undefined
              ? `${t("apikey-none", whoVars(ask.userId, person))}\n${t("apikey-usage")}`
              : statusLine(t, partner, person);
          return void (await answer(ctx, text));
        }
        case "test":
          return issueTest(ctx, ask.userId);
        case "callback": {
          const said = await callback(ctx, ask.userId, ask.typed, ask.test);
          return void (await answer(ctx, ask.test ? `${t("apikey-test-callback-head")} ${said}` : said));
        }
      }
    });
  },
});
