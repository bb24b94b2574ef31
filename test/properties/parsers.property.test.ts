import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkPlayerId, parseCatalog, parseCatalogText, type Game } from "../../src/catalog/catalog.js";
import { parseConfig } from "../../src/config.js";
import { Callback, type CallbackKind } from "../../src/bot/callback-data.js";
import { parseTopupAnswer } from "../../src/topup/provider-answer.js";
import { parsePriceCommand } from "../../src/bot/features/prices.js";
import { toCatalogJson } from "../../src/catalog/catalog.js";

const req = { refId: "TGREF", itemCode: "ML86", destination: "123" };
const KINDS = new Set(["success", "failed", "unknown"]);

/** JSON-ish values shaped like provider answers, plus anything at all. */
const answerLike = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      status: fc.oneof(fc.constantFrom(0, 1, "0", "1", 2, null), fc.jsonValue()),
      error_code: fc.oneof(fc.string(), fc.jsonValue()),
      error_msg: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
  fc.record({
    status: fc.constantFrom(1, "1"),
    data: fc.record(
      {
        trx_id: fc.oneof(fc.string(), fc.integer()),
        ref_id: fc.constantFrom("TGREF", "OTHER"),
        destination: fc.string(),
        destination_name: fc.oneof(fc.string(), fc.jsonValue()),
        message: fc.string(),
        sn: fc.oneof(fc.string(), fc.integer(), fc.double()),
        last_balance: fc.oneof(fc.integer(), fc.string(), fc.double()),
        product_detail: fc.record(
          {
            name: fc.string(),
            code: fc.string(),
            price: fc.oneof(fc.integer(), fc.string()),
            rate: fc.oneof(fc.integer(), fc.string()),
            priceRp: fc.oneof(fc.integer(), fc.string()),
            status: fc.oneof(fc.constant("SUKSES"), fc.string()),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
  }),
);

describe("parsers never throw, whatever arrives", () => {
  it("when any body arrives from the provider, then the answer is success, failed or unknown, never an exception", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          answerLike.map((v) => JSON.stringify(v)),
        ),
        fc.integer({ min: 100, max: 599 }),
        (body, status) => {
          const result = parseTopupAnswer(body, status, req);
          expect(KINDS.has(result.kind)).toBe(true);
          if (result.kind === "success") {
            expect(result.refId).toBe("TGREF");
            expect(result.productDetail.status).toBe("SUKSES");
            expect(Number.isFinite(result.lastBalance)).toBe(true);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("when any JSON is given as a catalogue, then it is accepted or refused with messages naming the file", () => {
    const entry = fc.record(
      {
        code: fc.oneof(fc.string(), fc.jsonValue()),
        name: fc.oneof(fc.string(), fc.jsonValue()),
        price: fc.oneof(fc.integer(), fc.double(), fc.jsonValue()),
      },
      { requiredKeys: [] },
    );
    const game = fc.record(
      {
        name: fc.oneof(fc.string(), fc.jsonValue()),
        destination: fc.oneof(fc.record({ pattern: fc.string(), example: fc.string() }), fc.jsonValue()),
        products: fc.oneof(fc.array(entry), fc.jsonValue()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.record({ games: fc.oneof(fc.array(game), fc.jsonValue()) })), (json) => {
        const result = parseCatalog(json, "shop.json");
        if (!result.ok) {
          expect(result.errors.length).toBeGreaterThan(0);
          for (const e of result.errors) expect(e.startsWith("shop.json: ")).toBe(true);
          // A person reads where by game and product, never a program's path.
          for (const e of result.errors) expect(e).not.toMatch(/games\[|products\[/);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("when any text is sent as a catalogue file, then text that is not JSON is refused naming its line and column", () => {
    const valid = JSON.stringify({ games: [{ name: "ML", products: [{ code: "ML86", name: "86", price: 20000 }] }] });
    // A valid file with one slip (a character lost or typed in), or any text at all.
    const slip = fc
      .tuple(fc.nat(valid.length - 1), fc.constantFrom("", ",", "'", "x", "}", "]", "\n", '"', "0"))
      .map(([at, typed]) => valid.slice(0, at) + typed + valid.slice(at + 1));
    fc.assert(
      fc.property(fc.oneof(slip, fc.string()), (text) => {
        const result = parseCatalogText(text, "shop.json");
        let isJson = true;
        try {
          JSON.parse(text.replace(/^\uFEFF/, ""));
        } catch {
          isJson = false;
        }
        if (!isJson) {
          expect(result.ok).toBe(false);
          if (!result.ok)
            expect(result.errors).toEqual([expect.stringMatching(/^shop\.json: line \d+, column \d+: not valid JSON/)]);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("when any text follows /price, then it is a price of whole rupiah in range or a reason, never an exception", () => {
    const words = fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9]{1,6} [0-9.,-]{1,14}( [A-Za-z!]{1,6})?$/));
    fc.assert(
      fc.property(words, (text) => {
        const parsed = parsePriceCommand(text);
        if (parsed.ok) {
          expect(Number.isSafeInteger(parsed.amount)).toBe(true);
          expect(parsed.amount).toBeGreaterThan(0);
          expect(parsed.amount).toBeLessThanOrEqual(1_000_000_000);
        } else expect(["usage", "amount", "tier", "unclear"]).toContain(parsed.why);
      }),
    );
  });

  it("when any valid catalogue is turned into its file form, then reading that file gives the same catalogue", () => {
    const product = fc.record({
      code: fc.stringMatching(/^[A-Z0-9]{1,8}$/),
      name: fc.stringMatching(/^[A-Za-z0-9 ]{0,10}[A-Za-z]$/),
      price: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
      prices: fc.dictionary(fc.constantFrom("reseller", "gold", "silver"), fc.integer({ min: 1, max: 1_000_000 })),
      disabled: fc.boolean(),
    });
    const catalog = fc.record({
      games: fc.array(
        fc.record({
          name: fc.constantFrom("ML", "FF", "GI"),
          products: fc.array(product, { minLength: 1, maxLength: 4 }),
        }),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
    });
    fc.assert(
      fc.property(catalog, (json) => {
        const first = parseCatalog(json, "a.json");
        if (!first.ok) return; // duplicate codes: refused, nothing to round-trip
        expect(parseCatalog(JSON.parse(JSON.stringify(toCatalogJson(first.catalog))), "a.json")).toEqual(first);
      }),
    );
  });

  it("when any text is checked as a player id against any valid pattern, then it is a yes or a no", () => {
    const patterns = fc.constantFrom("^[0-9]{6,12}\\([0-9]{4,5}\\)$", "^[0-9]{8,12}$", ".*", "a|b", "(x+x+)+y");
    fc.assert(
      fc.property(fc.option(patterns, { nil: undefined }), fc.string({ maxLength: 80 }), (pattern, input) => {
        const game: Game = {
          name: "G",
          destination: pattern === undefined ? undefined : { pattern, example: "1" },
          products: [],
        };
        const result = checkPlayerId(game, input);
        if (result.ok) {
          expect(result.playerId.length).toBeGreaterThan(0);
          expect(result.playerId.length).toBeLessThanOrEqual(64);
          expect(/\s/.test(result.playerId)).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("when any callback data arrives, then it decodes to one of ours or to nothing, and ours survive a round trip in 64 bytes", () => {
    const kinds = Object.values(Callback) as Array<CallbackKind<unknown>>;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 100 }),
          fc
            .constantFrom("c:", "g:", "h:", "s:", "p:", "gs:", "l:", "r:", "rd:", "em:")
            .chain((p) => fc.string({ maxLength: 70 }).map((r) => p + r)),
        ),
        (raw) => {
          for (const kind of kinds) {
            const data = kind.decode(raw);
            if (data !== undefined) expect(kind.encode(data)).toBe(raw);
          }
        },
      ),
      { numRuns: 5000 },
    );
    const id = fc.stringMatching(/^[A-Za-z0-9._-]{1,32}$/);
    const ours: fc.Arbitrary<[CallbackKind<unknown>, unknown]> = fc.oneof(
      fc.integer({ min: 0, max: 999 }).map((d) => [Callback.game, d] as [CallbackKind<unknown>, unknown]),
      fc.constant([Callback.games, null] as [CallbackKind<unknown>, unknown]),
      id.map((d) => [Callback.product, d] as [CallbackKind<unknown>, unknown]),
      id.map((d) => [Callback.confirm, d] as [CallbackKind<unknown>, unknown]),
      id.map((d) => [Callback.cancel, d] as [CallbackKind<unknown>, unknown]),
      id.map((d) => [Callback.receipt, d] as [CallbackKind<unknown>, unknown]),
      fc
        .record({ scope: fc.constantFrom("me" as const, "all" as const), page: fc.integer({ min: 0, max: 99999 }) })
        .map((d) => [Callback.history, d] as [CallbackKind<unknown>, unknown]),
      fc
        .record({ outcome: fc.constantFrom("success" as const, "failed" as const), refId: id })
        .map((d) => [Callback.settle, d] as [CallbackKind<unknown>, unknown]),
      fc
        .constantFrom("en" as const, "id" as const)
        .map((d) => [Callback.language, d] as [CallbackKind<unknown>, unknown]),
      fc
        .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true })
        .map((d) => d.toISOString())
        .chain((iso) =>
          fc.constantFrom(
            [Callback.reportDay, iso.slice(0, 10)] as [CallbackKind<unknown>, unknown],
            [Callback.reportCsv, iso.slice(0, 10)] as [CallbackKind<unknown>, unknown],
            [Callback.exportMonth, iso.slice(0, 7)] as [CallbackKind<unknown>, unknown],
          ),
        ),
    );
    fc.assert(
      fc.property(ours, ([kind, data]) => {
        const raw = kind.encode(data);
        expect(Buffer.byteLength(raw)).toBeLessThanOrEqual(64);
        expect(kind.decode(raw)).toEqual(data);
        // No other kind takes it for one of its own.
        for (const other of Object.values(Callback) as Array<CallbackKind<unknown>>)
          if (other !== kind) expect(other.decode(raw)).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it("when any environment is given, then the configuration is parsed or refused line by line, never thrown", () => {
    const names = fc.constantFrom(
      "BOT_TOKEN",
      "ADMIN_IDS",
      "ALLOWED_USER_IDS",
      "TOPUP_BASE_URL",
      "TOPUP_TIMEOUT_MS",
      "REDIS_URL",
      "PORT",
      "TZ",
      "LOG_LEVEL",
      "WEBHOOK_URL",
      "LOW_BALANCE_THRESHOLD",
      "REF_ID_PREFIX",
    );
    fc.assert(
      fc.property(fc.dictionary(names, fc.string({ maxLength: 40 })), (env) => {
        const result = parseConfig(env);
        if (!result.ok) for (const line of result.errors) expect(line).toMatch(/^[A-Z_]+ /);
      }),
      { numRuns: 2000 },
    );
  });
});
