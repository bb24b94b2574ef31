import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../e2e/fake-bot-api.js";
import { addBackup, routedCatalog } from "../e2e/backup.js";
import { ADMIN, button, createWorld, SECRET, STAFF, type World } from "../e2e/world.js";
import { signInitData, signPre8InitData } from "../helpers/init-data.js";
import { EMPTY_DEPOSIT_REFUSAL, listenJson } from "../helpers/provider-answer.js";
import { freePort } from "../helpers/redis.js";
import { postToWebhook } from "../helpers/webhook.js";
import { writePastDeposit } from "../helpers/ledger-history.js";

const RESELLER: FakeUser = { id: 5005, first_name: "Budi", language_code: "id" };
const OTHER_RESELLER: FakeUser = { id: 5006, first_name: "Dewi", language_code: "en" };
const STRANGER: FakeUser = { id: 6666, first_name: "Eve", language_code: "en" };
let requests = 0;
/** A fresh request id, as the page makes one for each action. */
const rid = () => `test-request-${++requests}`;

describe("the Mini App's API: who may see what, and every change through the chat's own services", () => {
  let world: World;
  let base: string;
  /** Every answer body, to check that no secret ever reaches the page. */
  const bodies: string[] = [];

  beforeEach(async () => {
    world = await createWorld();
    const port = await freePort();
    Object.assign(world.env, {
      ADMIN_IDS: String(ADMIN.id),
      ALLOWED_USER_IDS: String(STAFF.id),
      RESELLER_IDS: `${RESELLER.id},${OTHER_RESELLER.id}`,
      PORT: String(port),
      WEBAPP_URL: "https://shop.example.com",
    });
    base = `http://127.0.0.1:${port}/app/api`;
    bodies.length = 0;
  });
  afterEach(async () => {
    for (const text of bodies) {
      expect(text).not.toContain(world.fake.token);
      expect(text).not.toContain(SECRET);
    }
    await world.cleanup();
  });

  /** A call as the page makes it, with `user`'s init data (or the raw `auth` given). */
  async function call(
    path: string,
    opts: { user?: FakeUser; auth?: string; method?: string; body?: unknown; ageS?: number } = {},
  ) {
    const auth =
      opts.auth ??
      (opts.user === undefined ? undefined : `tma ${signInitData(opts.user, world.fake.token, opts.ageS)}`);
    const res = await request(`${base}${path}`, {
      method: (opts.method ?? (opts.body === undefined ? "GET" : "POST")) as "GET",
      headers: {
        ...(auth === undefined ? {} : { authorization: auth }),
        ...(opts.body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
    });
    const text = await res.body.text();
    bodies.push(text);
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, json, text, headers: res.headers };
  }

  it("when a reseller's system orders through the H2H API, then the admin's and the reseller's pages mark that order API", async () => {
    const bot = await world.run({ H2H_ENABLED: "true" });
    const app = bot.app!;
    const key = await app.partners.issue(RESELLER.id, Date.now());
    const at = new Date().toISOString();
    const deposit = {
      id: "DEPAPI1",
      resellerId: RESELLER.id,
      amount: 100_000,
      note: "",
      adminId: ADMIN.id,
      chatId: ADMIN.id,
    };
    await writePastDeposit(app.wallets, { ...deposit, createdAt: at }, { at });
    const query = new URLSearchParams({
      destination: "12345678(1234)",
      ref_id: "PAGE-1",
      item_code: "ML86",
      mitra_id: key.mitraId,
      secret_key: key.secretKey,
    }).toString();
    const answer = await request(`${base.replace(/\/app\/api$/, "")}/v1/transaction/partner?${query}`);
    expect(((await answer.body.json()) as { status: number }).status).toBe(1);
    await world.order(STAFF, "ML86", "87654321(4321)");

    const admin = await call("/admin/orders", { user: ADMIN });
    const byPlayer = (orders: Array<{ playerId: string; viaApi?: boolean }>, player: string) =>
      orders.find((o) => o.playerId === player);
    expect(byPlayer(admin.json.orders, "12345678(1234)")?.viaApi).toBe(true);
    expect(byPlayer(admin.json.orders, "87654321(4321)")?.viaApi).toBeUndefined();
    const mine = await call("/reseller/orders", { user: RESELLER });
    expect(byPlayer(mine.json.orders, "12345678(1234)")?.viaApi).toBe(true);
    // The page never carries the partner's key.
    for (const text of bodies) expect(text).not.toContain(key.secretKey);
  });

  it("when main refused an order and the backup sold it, then the admin's order card names both with their ref ids and a reseller's none; while every provider rests, the price list and the Catalogue mark its products", async () => {
    const backup = await addBackup(world);
    let t = Date.now();
    const bot = await world.run({ CATALOG_FILE: await routedCatalog() }, { now: () => new Date(t) });
    const at = new Date(t).toISOString();
    await writePastDeposit(
      bot.app!.wallets,
      {
        id: "DEPROUTE",
        resellerId: RESELLER.id,
        amount: 100_000,
        note: "",
        adminId: ADMIN.id,
        chatId: ADMIN.id,
        createdAt: at,
      },
      { at },
    );
    const routed = await world.order(STAFF, "ML86", "12345678(1234)");
    const routedRef = /Ref ID: <code>([A-Z0-9]+)<\/code>/i.exec(routed.text)![1]!;
    const plain = await world.order(STAFF, "ML172", "22345678(1234)");
    const plainRef = /Ref ID: <code>([A-Z0-9]+)<\/code>/i.exec(plain.text)![1]!;
    await world.order(RESELLER, "ML86", "32345678(1234)");

    const admin = await call("/admin/orders", { user: ADMIN });
    const card = (refId: string) => (admin.json.orders as Array<{ refId: string }>).find((o) => o.refId === refId);
    expect(card(routedRef)).toMatchObject({
      provider: { name: "backup", refId: `${routedRef}R2` },
      refusedBy: [{ provider: "main", refId: routedRef, errorCode: "product/not-found" }],
    });
    // Sold by main at once: main is named (the shop has several providers), nobody refused it.
    expect(card(plainRef)).toMatchObject({ provider: { name: "main", refId: plainRef } });
    expect(card(plainRef)).not.toHaveProperty("refusedBy");
    const mine = await call("/reseller/orders", { user: RESELLER });
    expect(mine.json.orders).toHaveLength(1);
    expect(mine.text).not.toMatch(/backup|provider|refusedBy/);

    // Nothing rests yet: nothing is marked.
    const prices = async () =>
      ((await call("/reseller/prices", { user: RESELLER })).json.games as Array<{ products: any[] }>).flatMap(
        (g) => g.products,
      );
    expect((await prices()).some((p) => p.resting === true)).toBe(false);
    expect((await call("/admin/catalog", { user: ADMIN })).json).not.toHaveProperty("resting");

    // Both deposits empty: the next order makes both providers rest.
    world.sandbox.deposit(-world.sandbox.balance());
    backup.deposit(-backup.balance());
    const failed = await world.order(STAFF, "ML172", "42345678(1234)");
    expect(failed.text).toMatch(/gagal/i);
    expect((await prices()).find((p) => p.code === "ML86")).toMatchObject({ resting: true });
    expect((await prices()).every((p) => p.resting === true)).toBe(true);
    const catalogue = (await call("/admin/catalog", { user: ADMIN })).json;
    expect(catalogue.resting).toContain("ML86");
    expect(catalogue.resting).toContain("ML172");

    // After the rest the next order may try them again: nothing is marked.
    t += 5 * 60_000;
    expect((await prices()).some((p) => p.resting === true)).toBe(false);
  });

  it("when the bot runs in webhook mode, then the shop app is served on the same port beside the webhook", async () => {
    await world.run({ WEBHOOK_URL: "https://shop.example.com/tg/hook", WEBHOOK_SECRET: "hook-secret_123" });
    const origin = base.replace(/\/app\/api$/, "");
    const page = await request(`${origin}/app/`);
    expect(page.statusCode).toBe(200);
    expect(await page.body.text()).toMatch(/<script[^>]+src="\.\/assets\/app-[A-Z0-9]+\.js"/);
    expect((await call("/session", { user: ADMIN })).json).toMatchObject({ role: "admin" });
    expect((await call("/session")).status).toBe(401);
    const update = world.fake.sendText(ADMIN, "/start");
    const posted = await postToWebhook(`${origin}/tg/hook`, JSON.stringify(update), "hook-secret_123");
    expect(posted.status).toBe(200);
    await world.waitText(ADMIN, /Hi Admin/);
  });

  it("when an admin opens the bot, then their chat's menu button opens the shop app, and /app answers admins and resellers with it", async () => {
    await world.run();
    const app = "https://shop.example.com/app/";
    const menuButtons = () =>
      world.fake.calls.filter((c) => c.method === "setChatMenuButton" && Number(c.payload.chat_id) === ADMIN.id);
    // At start every admin's chat gets it (Telegram refuses a chat never opened: so again at /start).
    await expect.poll(() => menuButtons().length).toBe(1);
    world.fake.sendText(ADMIN, "/start");
    await world.waitText(ADMIN, /\/app/);
    await expect.poll(() => menuButtons().length).toBe(2);
    const parse = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);
    expect(parse(menuButtons()[1]!.payload.menu_button)).toMatchObject({ type: "web_app", web_app: { url: app } });
    for (const [user, text] of [
      [ADMIN, /The shop app: today's sales/],
      [RESELLER, /Saldo, mutasi, pesanan dan harga Anda/],
    ] as const) {
      world.fake.sendText(user, "/app");
      const answer = await world.waitText(user, text);
      expect(answer.reply_markup.inline_keyboard[0][0].web_app).toEqual({ url: app });
    }
    // Staff see nothing of the shop: /app tells them it is not for them, with no button.
    world.fake.sendText(STAFF, "/app");
    const refused = await world.waitText(STAFF, /for the shop's admins and resellers|untuk admin dan reseller toko/);
    expect(refused.reply_markup).toBeUndefined();
  });

  it("when init data is missing, forged, altered, signed with another token or older than a day, then every path answers 401, unknown ones too", async () => {
    await world.run();
    const good = signInitData(ADMIN, world.fake.token);
    const forged = signInitData(ADMIN, "123456:not-the-bots-token");
    const altered = good.replace(encodeURIComponent(`"id":${ADMIN.id}`), encodeURIComponent(`"id":${STAFF.id}`));
    expect(altered).not.toBe(good);
    for (const path of ["/session", "/admin/today", "/reseller/wallet", "/no/such/path"]) {
      expect((await call(path)).status).toBe(401);
      expect((await call(path, { auth: `tma ${forged}` })).status).toBe(401);
      expect((await call(path, { auth: `tma ${altered}` })).status).toBe(401);
      expect((await call(path, { auth: good })).status).toBe(401); // without the "tma " scheme
      expect((await call(path, { user: ADMIN, ageS: 25 * 3600 })).status).toBe(401);
    }
    expect((await call("/no/such/path", { user: ADMIN })).status).toBe(404);
    const session = await call("/session", { user: ADMIN, ageS: 23 * 3600 });
    expect(session.status).toBe(200);
    expect(session.json).toMatchObject({ userId: ADMIN.id, role: "admin", lang: "en", timeZone: "Asia/Jakarta" });
    // A replayed change with expired init data changes nothing.
    const stale = await call("/admin/resellers/5005/deposits", {
      user: ADMIN,
      ageS: 25 * 3600,
      body: { amount: 50_000, requestId: rid() },
    });
    expect(stale.status).toBe(401);
    expect((await call("/admin/resellers", { user: ADMIN })).json.totals).toEqual({ saldo: 0, held: 0, total: 0 });
  });

  it("when a Telegram client older than Bot API 8.0 sends init data without a signature field, then it is accepted; forged, it is 401", async () => {
    await world.run();
    const pre8 = signPre8InitData(ADMIN, world.fake.token);
    expect(new URLSearchParams(pre8).has("signature")).toBe(false);
    const session = await call("/session", { auth: `tma ${pre8}` });
    expect(session.status).toBe(200);
    expect(session.json).toMatchObject({ userId: ADMIN.id, role: "admin", lang: "en" });
    expect((await call("/admin/today", { auth: `tma ${pre8}` })).status).toBe(200);
    const reseller = await call("/reseller/wallet", { auth: `tma ${signPre8InitData(RESELLER, world.fake.token)}` });
    expect(reseller.status).toBe(200);

    const forged = signPre8InitData(ADMIN, "123456:not-the-bots-token");
    expect((await call("/session", { auth: `tma ${forged}` })).status).toBe(401);
    const expired = signPre8InitData(ADMIN, world.fake.token, 25 * 3600);
    expect((await call("/session", { auth: `tma ${expired}` })).status).toBe(401);
  });

  it("when init data is refused, then the log says why in words and never the init data or its hash", async () => {
    const bot = await world.run();
    const good = signInitData(ADMIN, world.fake.token);
    const cases: Array<{ auth: string | undefined; reason: RegExp }> = [
      {
        auth: `tma ${signInitData(ADMIN, world.fake.token, 25 * 3600 + 60)}`,
        reason: /^expired 1 h 1 min ago \(signed 25 h 1 min ago, the limit is 24 h\)$/,
      },
      { auth: `tma ${signInitData(ADMIN, "123456:not-the-bots-token")}`, reason: /^bad signature/ },
      { auth: `tma ${signPre8InitData(ADMIN, "123456:not-the-bots-token")}`, reason: /^bad signature/ },
      { auth: `tma ${good.replace(/&hash=[0-9a-f]+/, "")}`, reason: /^missing field: hash$/ },
      { auth: `tma ${signPre8InitData(undefined, world.fake.token)}`, reason: /^missing field: user$/ },
      { auth: undefined, reason: /^no init data/ },
      { auth: good, reason: /^the Authorization header is not tma <init data>$/ },
    ];
    for (const { auth } of cases) {
      expect((await call("/session", auth === undefined ? {} : { auth })).status).toBe(401);
    }
    const refusals = bot
      .output()
      .split("\n")
      .filter((l) => l.includes("init data refused"))
      .map((l) => JSON.parse(l) as { reason: string; path: string });
    expect(refusals.map((r) => r.reason)).toHaveLength(cases.length);
    for (const [i, { reason }] of cases.entries()) {
      expect(refusals[i]).toMatchObject({ path: "/app/api/session" });
      expect(refusals[i]!.reason).toMatch(reason);
    }
    // Nothing of the data itself: not the raw query, its hash, the user's JSON nor the query id.
    for (const { auth } of cases) {
      if (auth === undefined) continue;
      const raw = auth.replace(/^tma /, "");
      expect(bot.output()).not.toContain(raw);
      const hash = new URLSearchParams(raw).get("hash");
      if (hash !== null) expect(bot.output()).not.toContain(hash);
    }
    expect(bot.output()).not.toContain(`AAq${ADMIN.id}`);
    expect(bot.output()).not.toContain('"first_name":"Admin"');
  });

  it("when staff, strangers and resellers ask for what is not theirs, then they get 403 and nothing else", async () => {
    await world.run();
    for (const user of [STAFF, STRANGER]) {
      for (const path of ["/session", "/admin/today", "/admin/resellers/5005", "/reseller/wallet"]) {
        const r = await call(path, { user });
        expect([path, r.status, r.json]).toEqual([path, 403, { error: "forbidden" }]);
      }
    }
    for (const path of ["/admin/today", "/admin/resellers/5006", "/admin/orders", "/admin/catalog"]) {
      expect((await call(path, { user: RESELLER })).status).toBe(403);
    }
    expect(
      (await call("/admin/resellers/5006/deposits", { user: RESELLER, body: { amount: 1000, requestId: rid() } }))
        .status,
    ).toBe(403);
    expect((await call("/reseller/wallet", { user: ADMIN })).status).toBe(403);
    const session = await call("/session", { user: RESELLER });
    expect(session.json).toMatchObject({ role: "reseller", tier: "reseller", lang: "id" });
  });

  it("when a request's body is not JSON or its fields are not what they must be, then it is refused naming each, and nothing changes", async () => {
    await world.run();
    const auth = `tma ${signInitData(ADMIN, world.fake.token)}`;
    const raw = await request(`${base}/admin/resellers/5005/deposits`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: "{amount: 5000",
    });
    expect(raw.statusCode).toBe(400);
    expect(await raw.body.json()).toMatchObject({
      error: "invalid",
      issues: [{ message: expect.stringMatching(/JSON/) }],
    });
    for (const amount of [-0, 1e30, "abc", 1.5, null]) {
      const r = await call("/admin/resellers/5005/deposits", { user: ADMIN, body: { amount, requestId: rid() } });
      expect([amount, r.status, r.json.issues]).toEqual([
        amount,
        422,
        [{ path: "amount", message: expect.any(String) }],
      ]);
    }
    const page = await call("/admin/orders?page=-1&day=2026-02-30", { user: ADMIN });
    expect(page.status).toBe(422);
    expect(page.json.issues.map((i: { path: string }) => i.path).sort()).toEqual(["day", "page"]);
    expect((await call("/admin/resellers", { user: ADMIN })).json.totals).toEqual({ saldo: 0, held: 0, total: 0 });
  });

  it("when the page and its API answer, then a browser is told to load nothing from elsewhere, and only Telegram may frame the page", async () => {
    await world.run();
    const origin = base.replace(/\/app\/api$/, "");
    for (const url of [`${origin}/app/`, `${base}/session`]) {
      const res = await request(url);
      await res.body.dump();
      const csp = String(res.headers["content-security-policy"]);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toMatch(/frame-ancestors 'self' https:\/\/web\.telegram\.org/);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      // X-Frame-Options would keep web.telegram.org from showing the page in its frame.
      expect(res.headers["x-frame-options"]).toBeUndefined();
    }
  });

  it("when another site's page asks, then no CORS header lets it read the answer", async () => {
    await world.run();
    const preflight = await request(`${base}/admin/today`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
    });
    await preflight.body.dump();
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    const r = await request(`${base}/session`, {
      headers: { origin: "https://evil.example", authorization: `tma ${signInitData(ADMIN, world.fake.token)}` },
    });
    await r.body.dump();
    expect(r.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("when an admin deposits in the page and the request is sent twice, then it is credited once and the reseller told once in the chat", async () => {
    await world.run();
    world.fake.sendText(RESELLER, "/start");
    await world.waitText(RESELLER, /Halo Budi/);
    const prepared = await call("/admin/resellers/5005/deposits", {
      user: ADMIN,
      body: { amount: 75_000, note: "BCA", requestId: "page-deposit-1" },
    });
    expect(prepared.status).toBe(200);
    expect(prepared.json).toMatchObject({
      resellerId: 5005,
      amount: 75_000,
      saldoBefore: 0,
      saldoAfter: 75_000,
      state: "draft",
    });
    const id = prepared.json.id as string;
    // The same request again (its answer was lost, the button tapped twice): the same deposit.
    const repeated = await call("/admin/resellers/5005/deposits", {
      user: ADMIN,
      body: { amount: 75_000, note: "BCA", requestId: "page-deposit-1" },
    });
    expect(repeated.json).toMatchObject({ id, amount: 75_000, state: "draft" });
    const [a, b] = await Promise.all([
      call(`/admin/deposits/${id}/confirm`, { user: ADMIN, method: "POST" }),
      call(`/admin/deposits/${id}/confirm`, { user: ADMIN, method: "POST" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const again = await call(`/admin/deposits/${id}/confirm`, { user: ADMIN, method: "POST" });
    expect(again.json).toMatchObject({ error: "taken", deposit: { state: "done", saldoAfter: 75_000 } });
    await world.waitText(RESELLER, /Deposit/);
    await world.fake.waitForIdle();
    expect(world.fake.messagesTo(RESELLER.id).filter((m) => /75\.000/.test(m.text))).toHaveLength(1);
    const statement = await call("/admin/resellers/5005", { user: ADMIN });
    expect(statement.json.reseller).toMatchObject({ saldo: 75_000, held: 0, tier: "reseller" });
    expect(statement.json.movements.map((m: any) => [m.kind, m.amount])).toEqual([["deposit", 75_000]]);
    // The same saldo in the chat.
    world.fake.sendText(RESELLER, "/saldo");
    await world.waitText(RESELLER, /Rp 75\.000/);
    // The reseller reads their own statement, never another's.
    expect((await call("/reseller/statement", { user: RESELLER })).json.movements).toHaveLength(1);
    expect((await call("/reseller/statement", { user: OTHER_RESELLER })).json.movements).toHaveLength(0);
    // Bad amounts are refused field by field and change nothing.
    for (const amount of [-1e30, 0, 1e30, "abc", 1.5]) {
      const bad = await call("/admin/resellers/5005/deposits", { user: ADMIN, body: { amount, requestId: rid() } });
      expect([amount, bad.status, bad.json.issues?.[0]?.path]).toEqual([amount, 422, "amount"]);
    }
    const below = await call("/admin/resellers/5005/deposits", {
      user: ADMIN,
      body: { amount: -100_000, requestId: rid() },
    });
    expect(below.json).toEqual({ error: "short", saldo: 75_000 });
    expect(
      (await call("/admin/resellers/7777/deposits", { user: ADMIN, body: { amount: 1000, requestId: rid() } })).status,
    ).toBe(404);
  });

  it("when the catalogue is edited in the page, then bad fields are named, a good edit is applied once and /pricelist shows it, and a stale one is refused", async () => {
    await world.run();
    const view = await call("/admin/catalog", { user: ADMIN });
    expect(view.json.version).toBe(0);
    const catalog = view.json.catalog;
    const withPrice = (price: unknown, code: unknown = "ML86") => ({
      games: catalog.games.map((g: any, gi: number) => ({
        ...g,
        products: g.products.map((p: any, pi: number) => (gi === 0 && pi === 0 ? { ...p, price, code } : p)),
      })),
    });
    // Each issue by its path (for the page to find the field) and where a person finds it.
    for (const [price, code, path, where] of [
      [-1, "ML86", "games[0].products[0].price", "Mobile Legends › ML86"],
      [1e30, "ML86", "games[0].products[0].price", "Mobile Legends › ML86"],
      ["abc", "ML86", "games[0].products[0].price", "Mobile Legends › ML86"],
      [21000, "", "games[0].products[0].code", "Mobile Legends › product 1"],
    ] as const) {
      const r = await call("/admin/catalog/check", { user: ADMIN, body: { base: 0, catalog: withPrice(price, code) } });
      expect([r.status, r.json.error, r.json.issues.map((i: any) => [i.path, i.where])]).toEqual([
        422,
        "invalid",
        [[path, where]],
      ]);
    }
    // The page is told the providers a route may name; a route to another one is refused at its path.
    expect(view.json.providers).toEqual(["main"]);
    const routed = withPrice(20000);
    routed.games[0].products[0].routes = [{ provider: "backup", code: "MLBB86" }];
    const unknown = await call("/admin/catalog/check", { user: ADMIN, body: { base: 0, catalog: routed } });
    expect([unknown.status, unknown.json.issues]).toEqual([
      422,
      [
        {
          path: "games[0].products[0].routes[0].provider",
          where: "Mobile Legends › ML86",
          message: 'route 1 provider "backup" is not configured (configured: main)',
        },
      ],
    ]);
    const negative = await call("/admin/catalog/check", { user: ADMIN, body: { base: 0, catalog: withPrice(-1) } });
    expect(negative.json.issues[0].message).toBe("price must be more than 0");
    const check = await call("/admin/catalog/check", { user: ADMIN, body: { base: 0, catalog: withPrice(21000) } });
    expect(check.json.changes).toEqual([{ kind: "price", code: "ML86", from: 20000, to: 21000 }]);
    const apply = { base: 0, catalog: withPrice(21000), requestId: "req-0001-aaaa" };
    const first = await call("/admin/catalog/apply", { user: ADMIN, body: apply });
    const second = await call("/admin/catalog/apply", { user: ADMIN, body: apply });
    expect([first.json.outcome, second.json.outcome]).toEqual(["applied", "already"]);
    expect(first.json.view.version).toBe(1);
    world.fake.sendText(STAFF, "/pricelist");
    await world.waitText(STAFF, /ML86<\/code> 86 Diamonds: <b>Rp 21\.000<\/b>/);
    // Another admin's edit against the old version is refused, with the catalogue as it is now.
    const stale = await call("/admin/catalog/apply", {
      user: ADMIN,
      body: { base: 0, catalog: withPrice(22000), requestId: "req-0002-bbbb" },
    });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ error: "stale", current: { version: 1 } });
    expect(stale.json.current.catalog.games[0].products[0].price).toBe(21000);
  });

  it("when a catalogue edit sets a price below the provider's last price or far from the old one, then the check says why beside that change, and Confirm is still asked for", async () => {
    await world.run();
    // A sale through the sandbox: the provider charged 19,500 for ML86.
    expect((await world.order(STAFF, "ML86", "12345678(1234)")).text).toMatch(/SN: <code>/);
    const view = await call("/admin/catalog", { user: ADMIN });
    const catalog = structuredClone(view.json.catalog);
    const [ml86, ml172] = catalog.games[0].products;
    ml86.price = 19_000; // below the provider's 19,500
    ml86.prices.reseller = 9_000; // below it, and 55% away from 19,800
    ml172.price = 39_500; // nothing to look at twice
    const check = await call("/admin/catalog/check", { user: ADMIN, body: { base: 0, catalog } });
    expect(check.status).toBe(200);
    expect(check.json.changes).toHaveLength(3);
    expect(check.json.warnings).toEqual([
      { code: "ML86", kind: "below-cost", providerPrice: 19_500, loss: 500 },
      { code: "ML86", tier: "reseller", kind: "below-cost", providerPrice: 19_500, loss: 10_500 },
      { code: "ML86", tier: "reseller", kind: "far", from: 19_800, percent: 55 },
    ]);
    // Checking applies nothing: the catalogue in use is still the file's.
    expect((await call("/admin/catalog", { user: ADMIN })).json.version).toBe(0);
  });

  it("when an unknown order is settled in the page, then its user is told, /pending no longer has it, and a second settlement is refused", async () => {
    await world.run({ TOPUP_BASE_URL: await world.flakyProvider() });
    const result = await world.order(STAFF, "ML86", "77712345(1234)");
    expect(result.text).toMatch(/hasil belum diketahui|Hasil belum diketahui/i);
    const refId = /<code>(TG[A-Z0-9]+)<\/code>/.exec(result.text)![1]!;
    const pending = await call("/admin/pending", { user: ADMIN });
    expect(pending.json.orders.map((o: any) => [o.refId, o.state, o.userId])).toEqual([[refId, "unknown", STAFF.id]]);
    const bad = await call(`/admin/pending/${refId}/settle`, {
      user: ADMIN,
      body: { outcome: "success", sn: "has spaces" },
    });
    expect([bad.status, bad.json.issues[0].path]).toEqual([422, "sn"]);
    const settled = await call(`/admin/pending/${refId}/settle`, {
      user: ADMIN,
      body: { outcome: "success", sn: "SN777" },
    });
    expect(settled.json.order).toMatchObject({ refId, state: "success", sn: "SN777", settledBy: ADMIN.id });
    await world.waitText(STAFF, /SN777/);
    const twice = await call(`/admin/pending/${refId}/settle`, {
      user: ADMIN,
      body: { outcome: "failed", reason: "no" },
    });
    expect(twice.status).toBe(409);
    world.fake.sendText(ADMIN, "/pending");
    await world.waitText(ADMIN, /No orders with an unknown result/);
  });

  it("when an admin looks at Today and Orders, then the figures are the day's, orders are found by ref id, player id, user and outcome, and the day's CSV is there", async () => {
    await world.run();
    const first = await world.order(STAFF, "ML86", "12345678(1234)");
    await world.order(ADMIN, "FF70", "123456789");
    const refId = /<code>(TG[A-Z0-9]+)<\/code>/.exec(first.text)![1]!;
    const today = await call("/admin/today", { user: ADMIN });
    expect(today.json).toMatchObject({
      orders: { total: 2, success: 2 },
      selling: 30_000,
      pending: 0,
      owed: { saldo: 0, held: 0, total: 0 },
    });
    expect(today.json.margin).toBe(today.json.selling - today.json.provider);
    // One provider: no line per provider, its one balance (the page shows it as before).
    expect(today.json.byProvider).toEqual([]);
    expect(today.json.balances).toEqual([{ provider: "main", balance: today.json.balance }]);
    expect(today.json.days).toHaveLength(30);
    expect(today.json.days.at(-1)).toMatchObject({ day: today.json.day, sales: 2 });
    const byRef = await call(`/admin/orders?q=${refId.toLowerCase()}`, { user: ADMIN });
    expect(byRef.json.orders.map((o: any) => o.refId)).toEqual([refId]);
    const byPlayer = await call(`/admin/orders?q=${encodeURIComponent("12345678(1234)")}`, { user: ADMIN });
    expect(byPlayer.json.orders.map((o: any) => o.refId)).toEqual([refId]);
    const byUser = await call(`/admin/orders?user=${ADMIN.id}&day=${today.json.day}`, { user: ADMIN });
    expect(byUser.json.orders.map((o: any) => o.productCode)).toEqual(["FF70"]);
    expect((await call(`/admin/orders?state=failed`, { user: ADMIN })).json.orders).toEqual([]);
    expect((await call(`/admin/orders?day=2026-02-31`, { user: ADMIN })).status).toBe(422);
    const csv = await call(`/admin/orders.csv?day=${today.json.day}`, { user: ADMIN });
    expect(csv.headers["content-type"]).toMatch(/text\/csv/);
    expect(csv.text.split("\r\n").filter(Boolean)).toHaveLength(3);
  });

  it("when a reseller opens their pages, then they see their saldo, their own orders and their tier's prices", async () => {
    await world.run();
    world.fake.sendText(ADMIN, "/deposit 5005 100000");
    const summary = await world.waitText(ADMIN, /for reseller <code>5005<\/code>/);
    world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
    await world.waitText(RESELLER, /Deposit/);
    await world.order(RESELLER, "ML86", "12345678(1234)");
    await world.order(STAFF, "FF70", "123456789");
    const wallet = await call("/reseller/wallet", { user: RESELLER });
    expect(wallet.json).toEqual({ saldo: 100_000 - 19_800, held: 0, tier: "reseller" });
    const orders = await call("/reseller/orders", { user: RESELLER });
    expect(orders.json.orders.map((o: any) => o.productCode)).toEqual(["ML86"]);
    expect(orders.json.orders[0].userId).toBeUndefined();
    expect(orders.json.orders[0].trxId).toBeUndefined();
    const prices = await call("/reseller/prices", { user: RESELLER });
    expect(prices.json.games[0].products[0]).toEqual({ code: "ML86", name: "86 Diamonds", price: 19_800 });
  });

  it("when a reseller's order is refused by the provider, then their page says it failed and the price came back, and only the admins' page has the provider's reason", async () => {
    const refusing = await listenJson(EMPTY_DEPOSIT_REFUSAL);
    try {
      world.env.TOPUP_BASE_URL = refusing.url;
      await world.run();
      world.fake.sendText(ADMIN, "/deposit 5005 100000");
      const summary = await world.waitText(ADMIN, /for reseller <code>5005<\/code>/);
      world.fake.tapButton(ADMIN, summary, button(summary, /^dc:/));
      await world.waitText(RESELLER, /Deposit/);
      const failed = await world.order(RESELLER, "ML86", "12345678(1234)");
      const refId = /Ref ID: <code>([A-Z0-9]+)<\/code>/.exec(failed.text)![1]!;

      const mine = await call("/reseller/orders", { user: RESELLER });
      expect(mine.json.orders).toHaveLength(1);
      expect(mine.json.orders[0]).toMatchObject({ refId, state: "failed", returned: 19_800 });
      expect(mine.text).not.toMatch(/Saldo tidak cukup|insufficient/);
      const admin = await call(`/admin/orders?q=${refId}`, { user: ADMIN });
      expect(admin.json.orders[0]).toMatchObject({
        refId,
        errorCode: "transaction/insufficient-balance",
        errorMessage: "Saldo tidak cukup",
      });
    } finally {
      await refusing.close();
    }
  });

  it("when a reseller sends a proof another reseller sent before, then only the admins' page names that other request", async () => {
    await world.run();
    world.fake.sendText(ADMIN, "/payinfo BCA 1234567890 a.n. Toko Maju");
    await world.waitText(ADMIN, /instructions set/);
    /** `user`'s /deposit and its proof, the same picture for both (one file_unique_id); the request id. */
    const askAndProve = async (user: FakeUser, amount: string) => {
      const before = world.fake.messagesTo(user.id).length;
      world.fake.sendText(user, `/deposit ${amount}`);
      const made = await world.fake.waitForMessage(
        user.id,
        (m) => /DR[0-9A-Z]{19}/.test(m.text) && world.fake.messagesTo(user.id).indexOf(m) >= before,
      );
      const id = /DR[0-9A-Z]{19}/.exec(made.text)![0];
      world.fake.sendPhoto(user, undefined, { replyTo: made, fileId: "transfer", fileUniqueId: "transfer" });
      await world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendPhoto" && m.text.includes(id));
      return id;
    };
    const first = await askAndProve(RESELLER, "100rb");
    const second = await askAndProve(OTHER_RESELLER, "50rb");

    // The admins are told, in the page as in the chat.
    const pending = await call("/admin/deposit-requests", { user: ADMIN });
    const flagged = pending.json.requests.find((r: any) => r.id === second);
    expect(flagged.proof.sentBeforeFor).toBe(first);
    // The reseller who sent it again never reads the other request's id, in no answer.
    const mine = await call("/reseller/deposit-requests", { user: OTHER_RESELLER });
    expect(mine.json.requests.map((r: any) => r.id)).toEqual([second]);
    expect(mine.text).not.toContain(first);
    const cancel = await call(`/reseller/deposit-requests/${second}/cancel`, { user: OTHER_RESELLER, body: {} });
    expect(cancel.status).toBe(409);
    expect(cancel.text).not.toContain(first);
    expect(world.fake.messagesTo(OTHER_RESELLER.id).some((m) => m.text.includes(first))).toBe(false);
  });

  it("when an owner reads the page, then margins leave unpriced sales out, statements read one line per order, resellers have names, and a player id is found as typed", async () => {
    await world.run({ TOPUP_BASE_URL: await world.flakyProvider() });
    world.fake.sendText(RESELLER, "/start");
    await world.waitText(RESELLER, /Halo Budi/);
    // A reseller's two orders: one that fails (the provider refuses ML257: not sold), one that succeeds.
    const summary = await world.summaryFor(ADMIN, "FF70", "777000111");
    world.fake.tapButton(ADMIN, summary, button(summary, /^c:/));
    const unknown = await world.waitText(ADMIN, /Result unknown/);
    const refId = /<code>(TG[A-Z0-9]+)<\/code>/.exec(unknown.text)![1]!;
    // FF70 was never priced: settled without a price, its margin is unknown.
    const settled = await call(`/admin/pending/${refId.toLowerCase()}/settle`, {
      user: ADMIN,
      body: { outcome: "success", sn: "SN1" },
    });
    expect(settled.status).toBe(200);
    const today = await call("/admin/today", { user: ADMIN });
    expect(today.json).toMatchObject({
      selling: 10_000,
      provider: 0,
      margin: 0,
      unpriced: { count: 1, selling: 10_000 },
    });
    expect(today.json.byProduct[0]).toMatchObject({ name: "FF70 · 70 Diamonds", unpriced: 10_000, margin: 0 });
    // A cost the admin gives counts.
    const second = await world.summaryFor(ADMIN, "FF70", "777000222");
    world.fake.tapButton(ADMIN, second, button(second, /^c:/));
    const other = await world.fake.waitForMessage(
      ADMIN.id,
      (m) => /Result unknown/.test(m.text) && !m.text.includes(refId),
    );
    const secondRef = /<code>(TG[A-Z0-9]+)<\/code>/.exec(other.text)![1]!;
    const given = await call(`/admin/pending/${secondRef}/settle`, {
      user: ADMIN,
      body: { outcome: "success", sn: "SN2", cost: 9_400 },
    });
    expect(given.status).toBe(200);
    expect((await call("/admin/today", { user: ADMIN })).json).toMatchObject({ margin: 600, unpriced: { count: 1 } });

    // The reseller's statement: an order is one line, spent; a failed one is spent and refunded.
    world.fake.sendText(ADMIN, "/deposit 5005 100000");
    const deposit = await world.waitText(ADMIN, /for reseller Budi <code>5005<\/code>/);
    world.fake.tapButton(ADMIN, deposit, button(deposit, /^dc:/));
    await world.waitText(RESELLER, /Deposit masuk/);
    await world.order(RESELLER, "ML86", "12345678(1234)");
    const statement = await call("/reseller/statement", { user: RESELLER });
    expect(statement.json.movements.map((m: any) => [m.kind, m.amount])).toEqual([
      ["spent", -19_800],
      ["deposit", 100_000],
    ]);
    const rows = await call("/admin/resellers", { user: ADMIN });
    expect(rows.json.resellers.find((r: any) => r.userId === RESELLER.id)).toMatchObject({ name: "Budi" });

    // A player id as people type it: with a space for the zone, or only its start.
    for (const q of ["12345678 1234", "12345678", "1234567"]) {
      const found = await call(`/admin/orders?q=${encodeURIComponent(q)}`, { user: ADMIN });
      expect([q, found.json.orders.map((o: any) => o.playerId)]).toEqual([q, ["12345678(1234)"]]);
    }
    expect((await call(`/admin/orders?q=99999`, { user: ADMIN })).json.orders).toEqual([]);
  });
});
