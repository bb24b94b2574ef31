import { readFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FakeUser, SentMessage } from "../fake-bot-api.js";
import { button, createWorld, type World } from "../world.js";

const ADMIN: FakeUser = { id: 1001, first_name: "Admin", language_code: "en" };
const ADMIN2: FakeUser = { id: 1003, first_name: "Rina", language_code: "id" };
const STAFF: FakeUser = { id: 1002, first_name: "Sari", language_code: "en" };
const RESELLER: FakeUser = { id: 5006, first_name: "Dewi", language_code: "en" };
const STRANGER: FakeUser = { id: 6666, first_name: "Eve", language_code: "en" };

describe("the shop from a phone: prices, products, the catalogue file, pause (through the bot, real Redis)", () => {
  let world: World;
  const env = {
    ADMIN_IDS: `${ADMIN.id},${ADMIN2.id}`,
    ALLOWED_USER_IDS: String(STAFF.id),
    RESELLER_IDS: String(RESELLER.id),
  };

  beforeEach(async () => {
    world = await createWorld();
  });
  afterEach(() => world.cleanup());

  /** Sends a text and resolves with the first new message in that chat that matches. */
  async function ask(user: FakeUser, text: string, pattern: RegExp): Promise<SentMessage> {
    const before = world.fake.messagesTo(user.id).length;
    world.fake.sendText(user, text);
    return world.fake.waitForMessage(
      user.id,
      (m) => pattern.test(m.text) && world.fake.messagesTo(user.id).indexOf(m) >= before,
    );
  }

  /** Sends a document and resolves with the first new message that matches. */
  async function upload(user: FakeUser, doc: Parameters<World["fake"]["sendDocument"]>[1], pattern: RegExp) {
    const before = world.fake.messagesTo(user.id).length;
    world.fake.sendDocument(user, doc);
    return world.fake.waitForMessage(
      user.id,
      (m) => pattern.test(m.text) && world.fake.messagesTo(user.id).indexOf(m) >= before,
    );
  }

  const catalogFile = async () => JSON.parse(await readFile("catalog.json", "utf8"));

  it("when users ask for /pricelist, then each sees their own prices by game, hidden products left out, and a stranger nothing", async () => {
    await world.run(env);
    const staff = await ask(STAFF, "/pricelist", /Price list/);
    expect(staff.text).toContain("<b>Mobile Legends</b>");
    expect(staff.text).toContain("<code>ML86</code> 86 Diamonds: <b>Rp 20,000</b>");
    expect(staff.text).toContain("<b>PUBG Mobile</b>");
    expect(staff.text).not.toMatch(/gold|19,800/); // staff never see reseller prices

    const reseller = await ask(RESELLER, "/pricelist", /Price list/);
    expect(reseller.text).toContain("tier <b>reseller</b>");
    expect(reseller.text).toContain("<code>ML86</code> 86 Diamonds: <b>Rp 19,800</b>");
    expect(reseller.text).not.toContain("20,000");

    await ask(ADMIN, "/disable ML172", /hidden/);
    const again = await ask(STAFF, "/pricelist", /Price list/);
    expect(again.text).not.toContain("ML172");
    const admin = await ask(ADMIN, "/pricelist", /Price list/);
    expect(admin.text).not.toContain("<code>ML172</code>");
    expect(admin.text).toMatch(/Hidden.*ML172/);
    expect(admin.text).toContain("reseller Rp 19,800 · gold Rp 19,700"); // an admin sees the tiers

    await ask(STRANGER, "/pricelist", /not allowed|may not|6666/);
    expect(world.fake.messagesTo(STRANGER.id).some((m) => /Price list/.test(m.text))).toBe(false);
  });

  it("when an admin sets a price, then the answer says old → new, new summaries use it, and a summary already shown keeps its price", async () => {
    const bot = await world.run(env);
    const oldSummary = await world.summaryFor(STAFF, "ML86", "12345678(1234)");
    expect(oldSummary.text).toContain("Price: Rp 20,000");

    const answer = await ask(ADMIN, "/price ml86 21.000", /price/);
    expect(answer.text).toContain("<b>ML86</b> · 86 Diamonds: price Rp 20,000 → <b>Rp 21,000</b>");
    const tier = await ask(ADMIN, "/price ML86 19500 GOLD", /tier/);
    expect(tier.text).toContain("price for tier <b>gold</b> Rp 19,700 → <b>Rp 19,500</b>");
    const newTier = await ask(ADMIN, "/price PUBG60 14000 gold", /tier/);
    expect(newTier.text).toContain("price for tier <b>gold</b> not set → <b>Rp 14,000</b>");
    expect((await ask(ADMIN, "/price ML86 21000", /already/)).text).toContain("Nothing changed");

    const newSummary = await world.summaryFor(STAFF, "ML86", "12345678(1234)");
    expect(newSummary.text).toContain("Price: Rp 21,000");
    // The summary shown before keeps the price it showed.
    world.fake.tapButton(STAFF, oldSummary, button(oldSummary, /^c:/));
    await world.waitText(STAFF, /Top-up successful/);
    const refId = /Order ref: <code>([A-Z0-9]+)<\/code>/.exec(oldSummary.text)![1]!;
    expect((await bot.app!.ledger.get(refId))?.price).toBe(20_000);

    // Bad input is explained, nothing changes.
    expect((await ask(ADMIN, "/price", /Usage/)).text).toContain("/price CODE AMOUNT");
    expect((await ask(ADMIN, "/price ML86 -5", /whole rupiah/)).text).toBeTruthy();
    expect((await ask(ADMIN, "/price ML86 0", /whole rupiah/)).text).toBeTruthy();
    expect((await ask(ADMIN, "/price ML86 12.5", /I can't tell which amount <code>12\.5<\/code> is/)).text).toContain(
      "<code>50rb</code>",
    );
    expect((await ask(ADMIN, "/price ML86 1000 Gold!", /tier name/)).text).toBeTruthy();
    expect((await ask(ADMIN, "/price XX1 1000", /no product with the code/)).text).toContain("XX1");
    expect((await ask(STAFF, "/price ML86 1", /only for admins|admins only|for admins/i)).text).toBeTruthy();
    expect((await ask(STAFF, "/pricelist", /Price list/)).text).toContain("<b>Rp 21,000</b>");

    // A restart keeps the catalogue edited in the chat, and says which one is in use.
    await bot.kill();
    const again = await world.run(env);
    expect(again.output()).toMatch(/catalogue in use: edited in the chat \(version 3/);
    expect((await ask(STAFF, "/pricelist", /Price list/)).text).toContain("<b>Rp 21,000</b>");
  });

  it("when a price warning's Confirm is pressed after the price was set another way, then nothing changes and it says what the price is now", async () => {
    await world.run(env);
    const warned = await ask(ADMIN, "/price ML86 2100", /Check this price/);
    const applied = await ask(ADMIN, "/price ML86 21000", /price Rp 20,000/);
    expect(applied.text).toContain("<b>Rp 21,000</b>");
    world.fake.tapButton(ADMIN, warned, button(warned, /^pc:/));
    const moved = await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.message_id === warned.message_id && /changed since this warning/.test(m.text),
    );
    expect(moved.text).toContain("it is now <b>Rp 21,000</b>");
    expect(moved.text).toContain("Nothing changed");
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /it is now Rp 21,000/.test(a.text ?? "")));
    expect((await ask(STAFF, "/pricelist", /Price list/)).text).toContain("<b>Rp 21,000</b>");
    // A tier's price the same way, in Indonesian: the tier's own price is what is compared.
    const tierWarned = await ask(ADMIN2, "/price ML86 5000 gold", /Periksa|harga/i);
    await ask(ADMIN, "/price ML86 19600 gold", /tier <b>gold<\/b> Rp 19,700/);
    const confirm = button(tierWarned, /^pc:/);
    world.fake.tapButton(ADMIN2, tierWarned, confirm);
    const tierMoved = await world.fake.waitForMessage(
      ADMIN2.id,
      (m) => m.message_id === tierWarned.message_id && /sudah berubah/.test(m.text),
    );
    expect(tierMoved.text).toContain("sekarang <b>Rp 19.600</b>");
    // Pressed again (an old copy of the button), the old warning still changes nothing.
    world.fake.tapButton(ADMIN2, tierWarned, confirm);
    await world.fake.waitFor(
      () => world.fake.callbackAnswers.filter((a) => /sekarang Rp 19\.600/.test(a.text ?? "")).length === 2,
    );
    expect((await ask(RESELLER, "/pricelist", /Price list/)).text).not.toContain("Rp 5,000");
  });

  it("when a selling price would fall below a tier's own price, then /price warns with Confirm and changes nothing until then", async () => {
    await world.run(env);
    const warned = await ask(ADMIN, "/price ML86 19750", /Check this price/);
    expect(warned.text).toContain(
      "Tier <b>reseller</b> would pay Rp 19,800, more than the selling price Rp 19,750: its resellers would pay more than a walk-in customer.",
    );
    expect(warned.text).not.toContain("Tier <b>gold</b>");
    expect((await ask(STAFF, "/pricelist", /Price list/)).text).toContain("<b>Rp 20,000</b>");
    world.fake.tapButton(ADMIN, warned, button(warned, /^pc:/));
    await world.fake.waitForMessage(ADMIN.id, (m) => m.message_id === warned.message_id && /confirmed/.test(m.text));
    expect((await ask(STAFF, "/pricelist", /Price list/)).text).toContain("<b>Rp 19,750</b>");
    // In Indonesian, for both tiers at once.
    const both = await ask(ADMIN2, "/price FF70 9650", /Periksa|harga/i);
    expect(both.text).toContain(
      "Tier <b>gold</b> akan membayar Rp 9.700, lebih mahal dari harga jual Rp 9.650: resellernya membayar lebih mahal dari pembeli biasa.",
    );
    expect(both.text).toContain("Tier <b>reseller</b> akan membayar Rp 9.800");
  });

  it("when an admin puts a reseller in a tier, then the products that tier has no price for, and so pays more than tier reseller, are listed", async () => {
    await world.run(env);
    const set = await ask(ADMIN, `/tier ${RESELLER.id} gold`, /tier reseller → <b>gold<\/b>/);
    expect(set.text).toContain("Tier <b>gold</b> has no price of its own for 2 products");
    expect(set.text).toContain("<code>ML257</code> 257 Diamonds: pays Rp 58,000 (tier reseller: Rp 57,600)");
    expect(set.text).toContain("<code>FF140</code> 140 Diamonds: pays Rp 19,500 (tier reseller: Rp 19,200)");
    expect(set.text).not.toContain("ML86");
    expect(set.text).toContain("<code>/price CODE AMOUNT gold</code>");
    // Once the tier has its own price, the product is no longer listed; in Indonesian.
    await ask(ADMIN, "/price ML257 57500 gold", /tier <b>gold<\/b>/);
    const again = await ask(ADMIN2, `/tier ${RESELLER.id} gold`, /tier gold → <b>gold<\/b>/);
    expect(again.text).toContain("tidak punya harga sendiri untuk 1 produk");
    expect(again.text).not.toContain("ML257");
    // Tier reseller itself has nothing to list.
    const back = await ask(ADMIN, `/tier ${RESELLER.id} reseller`, /→ <b>reseller<\/b>/);
    expect(back.text).not.toContain("no price of its own");
  });

  it("when an admin types a price the way people write it, then the answer shows it in rupiah, in English and Indonesian", async () => {
    await world.run(env);
    const rp = await ask(ADMIN, "/price ML86 Rp22.000", /price/);
    expect(rp.text).toContain("<b>ML86</b> · 86 Diamonds: price Rp 20,000 → <b>Rp 22,000</b>");
    const thousands = await ask(ADMIN2, "/price ML86 22,5rb", /harga/);
    expect(thousands.text).toContain("<b>ML86</b> · 86 Diamonds: harga Rp 22.000 → <b>Rp 22.500</b>");
    // The multiplier word is the amount's; the tier comes after it.
    const tier = await ask(ADMIN, "/price ML86 19 ribu gold", /tier/);
    expect(tier.text).toContain("price for tier <b>gold</b> Rp 19,700 → <b>Rp 19,000</b>");
    expect((await ask(STAFF, "/pricelist", /Price list/)).text).toContain("86 Diamonds: <b>Rp 22,500</b>");

    // What could be read two ways is refused with examples, and the price stays.
    const unclear = await ask(ADMIN2, "/price ML86 22.5", /jumlah/);
    expect(unclear.text).toContain("Saya tidak yakin berapa jumlah <code>22.5</code>");
    expect(unclear.text).toContain("<code>Rp50.000</code>");
    expect((await ask(ADMIN, "/price ML86 2,25", /amount/)).text).toContain("which amount <code>2,25</code> is");
    expect((await ask(STAFF, "/pricelist", /Price list/)).text).toContain("86 Diamonds: <b>Rp 22,500</b>");
  });

  it("when an admin disables a product, then it is not offered, cannot be ordered, and its summary already shown orders nothing at Confirm", async () => {
    await world.run(env);
    const summary = await world.summaryFor(STAFF, "FF70", "123456789");
    const confirmData = button(summary, /^c:/);
    const disabled = await ask(ADMIN, "/disable ff70", /hidden/);
    expect(disabled.text).toContain("<b>FF70</b> · 70 Diamonds: offered → <b>hidden</b>");
    expect((await ask(ADMIN, "/disable FF70", /already hidden/)).text).toContain("Nothing changed");

    world.fake.tapButton(STAFF, summary, confirmData);
    await world.waitText(STAFF, /<b>FF70<\/b> · 70 Diamonds is not for sale any more\. Nothing was ordered/);
    // The summary loses its buttons: a second tap cannot order it either.
    const retired = await world.fake.waitForMessage(
      STAFF.id,
      (m) => m.message_id === summary.message_id && m.reply_markup === undefined,
    );
    world.fake.tapButton(STAFF, retired, confirmData);
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /cancelled/.test(a.text ?? "")));
    expect(world.sandbox.calls.filter((c) => c.itemCode === "FF70")).toHaveLength(0);

    // Not offered: not in the menu, not by its code.
    world.fake.sendText(STAFF, "/order");
    const menu = await world.waitText(STAFF, /Choose a game/);
    world.fake.tapButton(STAFF, menu, button(menu, /Free Fire/));
    const products = await world.fake.waitForMessage(
      STAFF.id,
      (m) => m.message_id === menu.message_id && /FF140/.test(JSON.stringify(m.reply_markup)),
    );
    expect(JSON.stringify(products.reply_markup)).not.toContain("FF70");
    await ask(STAFF, "/order FF70 123456789", /no product with the code <b>FF70<\/b>/);

    expect((await ask(ADMIN, "/enable FF70", /offered/)).text).toContain("hidden → <b>offered</b>");
    const order = await world.order(STAFF, "FF70", "123456789");
    expect(order.text).toMatch(/Top-up successful/);
    expect(world.sandbox.calls.filter((c) => c.itemCode === "FF70")).toHaveLength(1);
  });

  it("when an admin asks for /catalog, edits it and sends it back, then the diff is shown and Confirm applies it once, without a restart", async () => {
    await world.run(env);
    world.fake.sendText(ADMIN, "/catalog");
    const doc = await world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendDocument");
    expect(doc.document?.filename).toBe("catalog.json");
    expect(doc.text).toMatch(/from the file/);
    const sent = JSON.parse(doc.document!.content);
    expect(sent).toEqual(await catalogFile());

    // Edit: a new product, one removed, a price changed, a tier price added, one hidden.
    const ml = sent.games[0];
    ml.products.push({ code: "ML514", name: "514 Diamonds", price: 115000 });
    ml.products[0].price = 20500;
    ml.products[2].prices.gold = 57000;
    sent.games[1].products = sent.games[1].products.filter((p: { code: string }) => p.code !== "FF140");
    sent.games[2].products[1].disabled = true;
    const diff = await upload(
      ADMIN,
      { fileName: "catalog.json", content: JSON.stringify(sent, null, 2) },
      /Check the new catalogue/,
    );
    expect(diff.text).toContain("➕ <b>ML514</b> · 514 Diamonds (Mobile Legends), price Rp 115,000");
    expect(diff.text).toContain("➖ <b>FF140</b> · 140 Diamonds (Free Fire) removed");
    expect(diff.text).toContain("✏️ <b>ML86</b>: price Rp 20,000 → Rp 20,500");
    expect(diff.text).toContain("✏️ <b>ML257</b>: tier gold price not set → Rp 57,000");
    expect(diff.text).toContain("⛔ <b>GI330</b>: offered → hidden");
    expect(diff.text).toContain("5 changes");
    // Nothing is applied before Confirm.
    expect((await ask(STAFF, "/pricelist", /Price list/)).text).toContain("FF140");

    const apply = button(diff, /^kc:/);
    const confirm = world.fake.tapButton(ADMIN, diff, apply);
    world.fake.tapButton(ADMIN, diff, apply);
    await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.message_id === diff.message_id && /new catalogue is in use/.test(m.text),
    );
    const alreadyApplied = () => world.fake.callbackAnswers.filter((a) => /already applied/.test(a.text ?? "")).length;
    await world.fake.waitFor(() => alreadyApplied() === 1);
    world.fake.redeliver(confirm); // Telegram again, after a restart: still applied once
    await world.fake.waitFor(() => alreadyApplied() === 2);

    const list = await ask(STAFF, "/pricelist", /Price list/);
    expect(list.text).toContain("<code>ML514</code> 514 Diamonds: <b>Rp 115,000</b>");
    expect(list.text).toContain("<code>ML86</code> 86 Diamonds: <b>Rp 20,500</b>");
    expect(list.text).not.toContain("FF140");
    expect(list.text).not.toContain("GI330");
    // Applied once: the catalogue went from the file to version 1 only.
    world.fake.sendText(ADMIN, "/catalog");
    const after = await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.method === "sendDocument" && m.message_id !== doc.message_id,
    );
    expect(after.text).toMatch(/edited in the chat \(version 1,/);
    expect(JSON.parse(after.document!.content)).toEqual(sent);

    // The same file again: nothing to change.
    await upload(ADMIN, { fileName: "catalog.json", content: JSON.stringify(sent) }, /same as the catalogue in use/);
  });

  it("when a catalogue file is bad, not JSON, too large or from someone who is not an admin, then it is refused with a clear answer and nothing changes", async () => {
    await world.run(env);
    const bad = await catalogFile();
    bad.games[0].products[1].price = -5;
    bad.games[1].products[0].code = "ML86";
    delete bad.games[2].name;
    const invalid = await upload(
      ADMIN,
      { fileName: "prices.json", content: JSON.stringify(bad) },
      /not a valid catalogue/,
    );
    // Every problem at once, the duplicate code too, each by its game and product.
    expect(invalid.text).toContain("(3 problems)");
    expect(invalid.text).toContain("• Mobile Legends › ML172: price must be more than 0");
    expect(invalid.text).toContain(
      "• Free Fire › ML86: code is already used by Mobile Legends › product 1 (codes are case-insensitive)",
    );
    expect(invalid.text).toContain("• game 3: name is required");
    expect(invalid.text).not.toMatch(/games\[/);
    expect(invalid.reply_markup).toBeUndefined();

    const broken = await upload(
      ADMIN,
      { fileName: "catalog.json", content: '{\n  "games": [\n    { "name": "ML", }\n  ]\n}' },
      /not a valid catalogue/,
    );
    expect(broken.text).toContain("• line 3, column 21: not valid JSON (expected double-quoted property name)");
    await upload(ADMIN, { fileName: "notes.txt", content: "hello" }, /<b>notes\.txt<\/b> is not a JSON file/);
    await upload(
      ADMIN,
      { fileName: "big.json", content: "{}", size: 5_000_000 },
      /<b>big\.json<\/b> is too large \(4883 KB; at most 256 KB\)/,
    );
    const good = JSON.stringify(await catalogFile());
    await upload(STAFF, { fileName: "catalog.json", content: good }, /Only an admin can change the catalogue/);
    await upload(RESELLER, { fileName: "catalog.json", content: good }, /Only an admin can change the catalogue/);
    world.fake.sendDocument(STRANGER, { fileName: "catalog.json", content: good });
    await world.waitText(STRANGER, /6666/);

    world.fake.sendText(ADMIN, "/catalog");
    const doc = await world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendDocument");
    expect(doc.text).toMatch(/from the file/);
    expect(world.fake.allOutgoingText()).not.toContain(world.fake.token);
    expect(world.bots[0]!.output()).not.toContain(world.fake.token);
  });

  it("when a catalogue file routes a product through its providers, then a provider not configured is refused at its route, and a good file's routes are applied and sent back", async () => {
    await world.run({
      ...env,
      TOPUP_PROVIDERS: "main,backup",
      TOPUP_BACKUP_BASE_URL: world.sandbox.url,
      TOPUP_BACKUP_MITRA_ID: "B1",
      TOPUP_BACKUP_SECRET_KEY: "backup-secret",
    });
    const edited = await catalogFile();
    edited.games[0].products[0].routes = [
      { provider: "main", code: "ML86" },
      { provider: "spare", code: "SP86" },
    ];
    const refused = await upload(
      ADMIN,
      { fileName: "routes.json", content: JSON.stringify(edited) },
      /not a valid catalogue/,
    );
    expect(refused.text).toContain(
      '• Mobile Legends › ML86: route 2 provider "spare" is not configured (configured: main, backup)',
    );

    edited.games[0].products[0].routes[1] = { provider: "backup", code: "MLBB86" };
    const diff = await upload(
      ADMIN,
      { fileName: "routes.json", content: JSON.stringify(edited) },
      /Check the new catalogue/,
    );
    expect(diff.text).toContain("🔀 <b>ML86</b>: routes every provider, under its code → main ML86 › backup MLBB86");
    world.fake.tapButton(ADMIN, diff, button(diff, /^kc:/));
    await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.message_id === diff.message_id && /new catalogue is in use/.test(m.text),
    );
    world.fake.sendText(ADMIN, "/catalog");
    const doc = await world.fake.waitForMessage(ADMIN.id, (m) => m.method === "sendDocument");
    expect(JSON.parse(doc.document!.content).games[0].products[0].routes).toEqual([
      { provider: "main", code: "ML86" },
      { provider: "backup", code: "MLBB86" },
    ]);
    expect(world.bots[0]!.output()).not.toContain("backup-secret");
  });

  it("when the catalogue changed after a file was checked, then its Confirm applies nothing and says why; Cancel cancels", async () => {
    await world.run(env);
    const edited = await catalogFile();
    edited.games[0].products[0].price = 25000;
    const diff = await upload(
      ADMIN,
      { fileName: "catalog.json", content: JSON.stringify(edited) },
      /Check the new catalogue/,
    );
    // Another admin changes a price meanwhile: applying the file would undo it.
    await ask(ADMIN2, "/price FF70 11000", /FF70/);
    world.fake.tapButton(ADMIN, diff, button(diff, /^kc:/));
    await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.message_id === diff.message_id && /changed by someone else/.test(m.text),
    );
    const list = await ask(STAFF, "/pricelist", /Price list/);
    expect(list.text).toContain("<code>FF70</code> 70 Diamonds: <b>Rp 11,000</b>");
    expect(list.text).toContain("<code>ML86</code> 86 Diamonds: <b>Rp 20,000</b>");

    const second = await upload(
      ADMIN,
      { fileName: "catalog.json", content: JSON.stringify(edited) },
      /Check the new catalogue/,
    );
    expect(second.text).toContain("FF70"); // the file still has the old FF70 price: shown as a change back
    const [apply, cancel] = [button(second, /^kc:/), button(second, /^kx:/)];
    world.fake.tapButton(STAFF, second, apply);
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /admin/i.test(a.text ?? "")));
    world.fake.tapButton(ADMIN, second, cancel);
    await world.fake.waitForMessage(
      ADMIN.id,
      (m) => m.message_id === second.message_id && /Cancelled\. The catalogue was not changed/.test(m.text),
    );
    world.fake.tapButton(ADMIN, second, apply);
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /was cancelled/.test(a.text ?? "")));
    expect((await ask(STAFF, "/pricelist", /Price list/)).text).toContain("<b>Rp 20,000</b>");
  });

  it("when an admin pauses orders, then nobody can start or confirm one and users hear the reason, an order at the provider finishes, and the pause survives a restart", async () => {
    await world.run(env);
    const shown = await world.summaryFor(RESELLER, "ML86", "12345678(1234)");
    const staffSummary = await world.summaryFor(STAFF, "FF70", "123456789");
    const paused = await ask(ADMIN, "/pause Provider down, back at 15:00", /Orders are paused/);
    expect(paused.text).toContain("Users are told: Provider down, back at 15:00");

    await ask(STAFF, "/order", /Orders are paused for now: Provider down, back at 15:00\. Nothing was ordered/);
    await ask(STAFF, "/start", /Orders are paused for now: Provider down/);
    await ask(ADMIN, "/order ML86 12345678(1234)", /Orders are paused for now/);
    world.fake.tapButton(STAFF, staffSummary, button(staffSummary, /^c:/));
    await world.waitText(STAFF, /paused/);
    await world.fake.waitFor(() =>
      world.fake.callbackAnswers.some((a) => /Orders are paused: Provider down/.test(a.text ?? "")),
    );
    expect(world.sandbox.calls).toHaveLength(0);
    // Everything else still works for admins.
    await ask(ADMIN, "/pricelist", /Price list/);

    // A restart keeps the pause.
    await world.bots[0]!.kill();
    const again = await world.run(env);
    expect(again.output()).toMatch(/orders are paused/);
    await ask(STAFF, "/order FF70 123456789", /Orders are paused for now: Provider down/);
    // /pause alone shows the pause and keeps the reason users are told.
    const still = await ask(ADMIN, "/pause", /Orders are paused \(since/);
    expect(still.text).toContain("Provider down, back at 15:00");
    expect(still.text).toContain("Nothing changed");
    await ask(STAFF, "/order", /Orders are paused for now: Provider down, back at 15:00/);

    const resumed = await ask(ADMIN2, "/resume", /dibuka lagi/);
    expect(resumed.text).toContain("<code>1001</code>");
    await ask(ADMIN, "/resume", /not paused/);
    // The summary shown before the pause can be confirmed now, at its price.
    world.fake.tapButton(STAFF, staffSummary, button(staffSummary, /^c:/));
    await world.waitText(STAFF, /Top-up successful/);
    expect(shown.text).toContain("Rp 19,800");
    expect(world.sandbox.calls).toHaveLength(1);
  });

  it("when orders are paused while an order is at the provider, then that order finishes normally", async () => {
    await world.run({ ...env, TOPUP_BASE_URL: (await world.slowSandbox(1500)).url });
    const summary = await world.summaryFor(STAFF, "ML86", "12345678(1234)");
    world.fake.tapButton(STAFF, summary, button(summary, /^c:/));
    await world.fake.waitFor(() => world.fake.callbackAnswers.some((a) => /Processing/.test(a.text ?? "")));
    await ask(ADMIN, "/pause maintenance", /Orders are paused/);
    await world.waitText(STAFF, /Top-up successful/);
  });

  it("when a user is in the middle of an order and orders are paused, then the player id step orders nothing and says why", async () => {
    await world.run(env);
    world.fake.sendText(STAFF, "/order ML86");
    await world.waitText(STAFF, /player id/i);
    await ask(ADMIN, "/pause", /Orders are paused/);
    await ask(STAFF, "12345678(1234)", /Orders are paused for now/);
    expect(world.fake.messagesTo(STAFF.id).some((m) => /Please check your order/.test(m.text))).toBe(false);
  });
});
