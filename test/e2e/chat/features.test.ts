import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FEATURES } from "../../../src/bot/all-features.js";
import { parseConfig } from "../../../src/config.js";
import { checkFeatures, defineFeature, helpLines, menuCommands, moneyCommands } from "../../../src/bot/feature.js";
import type { FakeUser } from "../fake-bot-api.js";
import { createWorld, type World } from "../world.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const SARI: FakeUser = { id: 1002, first_name: "Sari", language_code: "en" };
const STRANGER: FakeUser = { id: 6666, first_name: "Eve", language_code: "en" };
const GROUP = -100500;

/** A command a newcomer might add: one file's worth, and nothing else of the bot touched. */
const pingFeature = defineFeature({
  name: "ping",
  needs: ["reports"],
  commands: [{ name: "ping", menu: ["everyone"], money: true, help: [{ key: "help-ping", for: ["staff", "admin"] }] }],
  setup(at) {
    at("buyers").command("ping", async (ctx) => {
      const seen = await ctx.services.reports.providerBalance();
      await ctx.reply(`pong, balance ${seen?.balance ?? "not seen yet"}`);
    });
  },
});

describe("features describe themselves: menus, the command list and the group rule come from their descriptions", () => {
  it("when the menus are derived, then everyone's, a reseller's and an admin's list the commands in the features' order", () => {
    const everyone = ["start", "order", "cancel", "pricelist", "balance", "history", "status", "language", "help"];
    expect(menuCommands(FEATURES, "everyone")).toEqual(everyone);
    expect(menuCommands(FEATURES, "reseller")).toEqual([...everyone, "deposit", "saldo", "app"]);
    expect(menuCommands(FEATURES, "admin")).toEqual([
      ...everyone,
      ...[
        "report",
        "top",
        "compare",
        "hours",
        "export",
        "pending",
        "settle",
        "users",
        "allow",
        "deny",
        "deposit",
        "saldo",
        "tier",
        "payinfo",
        "apikey",
      ],
      ...["price", "disable", "enable", "catalog", "pause", "resume", "broadcast", "app"],
    ]);
    // Without WEBAPP_URL there is no Mini App: /app is not offered at all.
    const parsed = parseConfig({ BOT_TOKEN: "1:x" });
    if (!parsed.ok) throw new Error(parsed.errors.join());
    const installed = FEATURES.filter((f) => f.availableWith(parsed.config));
    expect(menuCommands(installed, "admin")).not.toContain("app");
    expect(menuCommands(installed, "reseller")).toEqual([...everyone, "deposit", "saldo"]);
    expect([...moneyCommands(FEATURES)].sort()).toEqual([
      "balance",
      "compare",
      "export",
      "hours",
      "report",
      "saldo",
      "top",
    ]);
  });

  it("when the command list is derived, then each role reads its own lines and a stranger only what anyone may use", () => {
    expect(helpLines(FEATURES, undefined)).toEqual({ everyone: ["help-language", "help-help"], admin: [] });
    const staff = helpLines(FEATURES, "staff");
    expect(staff.everyone).toContain("help-balance");
    expect(staff.everyone).not.toContain("help-saldo-own");
    expect(staff.admin).toEqual([]);
    const reseller = helpLines(FEATURES, "reseller");
    expect(reseller.everyone).toContain("help-saldo-own");
    expect(reseller.everyone).not.toContain("help-balance");
    expect(reseller.everyone).toContain("help-deposit-request");
    const admin = helpLines(FEATURES, "admin");
    expect(admin.admin).toEqual(
      expect.arrayContaining(["help-report", "help-pending", "help-broadcast", "help-payinfo"]),
    );
    expect([...admin.everyone, ...admin.admin]).not.toContain("help-deposit-request");
  });

  it("when a feature needs a service that is not there, or two features claim one command, then the bot is not built", () => {
    expect(() => checkFeatures([pingFeature], {})).toThrow(/ping needs the service "reports"/);
    const twin = defineFeature({ name: "twin", needs: [], commands: [{ name: "ping" }], setup: () => undefined });
    expect(() => checkFeatures([pingFeature, twin], { reports: {} as never })).toThrow(
      /\/ping is claimed by ping and twin/,
    );
  });

  describe("a new feature, added to the list and nowhere else", () => {
    let world: World;
    beforeEach(async () => {
      world = await createWorld();
      Object.assign(world.env, { ADMIN_IDS: String(ADMIN.id), ALLOWED_USER_IDS: String(SARI.id) });
    });
    afterEach(() => world.cleanup());

    it("when it is installed, then its command is in the menu and /help, answers buyers, stays out of groups, and refuses strangers", async () => {
      await world.run({}, { features: [...FEATURES.slice(0, -1), pingFeature, FEATURES.at(-1)!] });
      await world.fake.waitFor(() => world.fake.calls.some((c) => c.method === "setMyCommands"));
      const menu = world.fake.calls.find((c) => c.method === "setMyCommands" && c.payload.scope.type === "default");
      expect(menu?.payload.commands.map((c: { command: string }) => c.command).at(-1)).toBe("ping");

      world.fake.sendText(SARI, "/ping");
      await world.waitText(SARI, /^pong, balance not seen yet$/);
      world.fake.sendText(SARI, "/help");
      await world.waitText(SARI, /\{help-ping\}/);
      world.fake.sendText(SARI, "/ping", GROUP);
      await world.fake.waitForMessage(GROUP, (m) => /private chat/.test(m.text));
      world.fake.sendText(STRANGER, "/ping");
      await world.waitText(STRANGER, /may not order/);
      await world.fake.waitForIdle();
      expect(world.fake.allOutgoingText().match(/pong/g)).toHaveLength(1);
    });
  });
});
