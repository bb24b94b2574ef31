import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  draftFields,
  fillMessage,
  messageTemplate,
  orderFromHash,
  resultFields,
} from "../../src/ledger/order-codec.js";
import { compactElement, lineOfElement, orderTexts, unpackOrder } from "../../src/ledger/packed-order-codec.js";
import { orderLine } from "../../src/orders/order-line.js";
import { movementFromLine, movementLine, packMovements, unpackMovements } from "../../src/ledger/statement-codec.js";
import type { Attempt, OrderRecord, RefusedAttempt } from "../../src/orders/order.js";
import { attemptRefId, newRefId } from "../../src/orders/ref-id.js";
import type { Movement } from "../../src/orders/wallet.js";

/** What JSON keeps of a value (no undefined fields): what Redis can be asked to give back. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const time = fc.integer({ min: Date.parse("2020-01-01"), max: Date.parse("2040-01-01") });
const iso = fc.oneof(
  time.map((ms) => new Date(ms).toISOString()),
  fc.constantFrom("2026-03-10T03:00:00Z", "2026-03-10 10:00:00+07:00"),
);
const text = fc.oneof(fc.string(), fc.constantFrom("", "-", "{", "{s}", "a\tb\nc\\d", "{{x}}", "^", "Dewi 🌸"));
const int = fc.oneof(fc.integer({ min: -1e12, max: 1e12 }), fc.constantFrom(0, -1, 1.5, 1e20));

const result = fc.record(
  {
    trxId: text,
    destinationName: text,
    sn: text,
    lastBalance: int,
    message: text,
    productDetail: fc.oneof(
      fc.record({ name: text, code: text, price: int, rate: int, priceRp: int, status: text }),
      fc.record({ name: text, code: fc.integer(), extra: fc.jsonValue() }, { requiredKeys: [] }),
    ),
    errorCode: text,
    errorMsg: text,
    reason: fc.constantFrom("provider-error", "not-sent", "timeout", "interrupted", "settled"),
    detail: text,
    other: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

/** Orders of every shape the ledger may hold, with ref ids made as the bot makes them or not. */
const order: fc.Arbitrary<OrderRecord> = fc
  .record(
    {
      made: time,
      ownRef: fc.boolean(),
      refId: fc.stringMatching(/^[A-Z0-9]{3,29}$/),
      chatId: fc.integer({ min: -1e13, max: 1e10 }),
      userId: fc.integer({ min: 1, max: 1e10 }),
      userName: text,
      lang: fc.constantFrom("en" as const, "id" as const),
      gameName: text,
      productCode: text,
      productName: text,
      price: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 1e8 })),
      playerId: text,
      role: fc.constantFrom(undefined, "staff" as const, "admin" as const, "reseller" as const),
      tier: fc.option(text, { nil: undefined }),
      requestMessageId: fc.option(fc.integer({ min: 1, max: 1e7 }), { nil: undefined }),
      state: fc.constantFrom("success" as const, "failed" as const),
      submitted: fc.integer({ min: 0, max: 2 * 86_400_000 }),
      finishedAt: fc.option(iso, { nil: undefined }),
      notifiedAt: fc.option(iso, { nil: undefined }),
      summaryMessageId: fc.option(fc.integer({ min: 1, max: 1e7 }), { nil: undefined }),
      saldoAfter: fc.option(fc.integer({ min: 0, max: 1e10 }), { nil: undefined }),
      settledBy: fc.option(fc.integer({ min: 1, max: 1e10 }), { nil: undefined }),
      settledAt: fc.option(iso, { nil: undefined }),
      result: fc.option(result, { nil: undefined }),
      createdOff: fc.boolean(),
      /** Several providers: the attempts refused before the current one, and how each is spelled. */
      attempts: fc.array(
        fc.record({
          provider: fc.constantFrom("main", "backup", "p2"),
          ownCode: fc.boolean(),
          code: text,
          ownRef: fc.boolean(),
          ref: fc.stringMatching(/^[A-Z0-9]{3,29}$/),
          at: fc.option(iso, { nil: undefined }),
          reason: fc.constantFrom("provider-error" as const, "not-sent" as const),
          errorCode: fc.option(text, { nil: undefined }),
          errorMsg: fc.option(text, { nil: undefined }),
        }),
        { maxLength: 3 },
      ),
    },
    { requiredKeys: ["made", "ownRef", "refId", "chatId", "userId", "submitted", "state", "createdOff", "attempts"] },
  )
  .map((o) => {
    const refId = o.ownRef ? newRefId("TG", new Date(o.made)) : o.refId;
    const record: OrderRecord = {
      refId,
      chatId: o.chatId,
      userId: o.userId,
      userName: o.userName ?? "",
      lang: o.lang ?? "id",
      gameName: o.gameName ?? "",
      productCode: o.productCode ?? "",
      productName: o.productName ?? "",
      price: o.price ?? null,
      playerId: o.playerId ?? "",
      createdAt: new Date(o.made + (o.createdOff ? 1234 : 0)).toISOString(),
      state: o.state,
      submittedAt: new Date(o.made + o.submitted).toISOString(),
    };
    for (const key of [
      "role",
      "tier",
      "requestMessageId",
      "finishedAt",
      "notifiedAt",
      "summaryMessageId",
      "saldoAfter",
      "settledBy",
      "settledAt",
      "result",
    ] as const) {
      if (o[key] !== undefined) (record as unknown as Record<string, unknown>)[key] = o[key];
    }
    // The last of the attempts is the current one; none: the implicit one (main), as a shop of one provider.
    const tries: Attempt[] = o.attempts.map((a, i) => ({
      provider: a.provider,
      code: a.ownCode ? record.productCode : a.code,
      refId: a.ownRef ? (i === 0 ? refId : attemptRefId(refId, i + 1)) : a.ref,
      at: a.at ?? record.submittedAt!,
    }));
    if (tries.length > 0) record.attempt = tries.at(-1)!;
    if (tries.length > 1)
      record.refused = tries.slice(0, -1).map((t, i): RefusedAttempt => {
        const a = o.attempts[i]!;
        return {
          ...t,
          reason: a.reason,
          ...(a.errorCode === undefined ? {} : { errorCode: a.errorCode }),
          ...(a.errorMsg === undefined ? {} : { errorMsg: a.errorMsg }),
        };
      });
    return plain(record);
  });

describe("the ledger's codecs give back exactly what they were given", () => {
  it("when any order is written as the hash of an open order, then it reads back the same", () => {
    fc.assert(
      // Its attempts are written by the ledger's scripts alone (the ledger contract reads them back).
      fc.property(order, ({ attempt: _attempt, refused: _refused, ...o }) => {
        const fields: Record<string, string> = { ...draftFields(o), s: o.state };
        const flat = o.result === undefined ? [] : resultFields(o.result);
        // Every value fits Redis's packed hash (at most 64 bytes).
        for (let i = 1; i < flat.length; i += 2) expect(Buffer.byteLength(flat[i]!)).toBeLessThanOrEqual(60);
        for (let i = 0; i < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!;
        for (const [k, v] of [
          ["sa", o.submittedAt],
          ["fa", o.finishedAt],
          ["na", o.notifiedAt],
          ["st", o.settledAt],
        ] as const)
          if (v !== undefined) fields[k] = v;
        if (o.summaryMessageId !== undefined) fields.m = String(o.summaryMessageId);
        if (o.settledBy !== undefined) fields.sb = String(o.settledBy);
        if (o.saldoAfter !== undefined) fields.ws = String(o.saldoAfter);
        expect(plain(orderFromHash(o.refId, fields))).toEqual(o);
      }),
      { numRuns: 300 },
    );
  });

  it("when any finished order is compacted, then its element reads back the same, and usually packed, not as JSON", () => {
    let packed = 0;
    fc.assert(
      fc.property(order, (o) => {
        const texts = orderTexts(o);
        const ids = new Map<string, string>();
        const byText = new Map<string, string>();
        const id = (t: string) => {
          if (!byText.has(t)) {
            byText.set(t, `${byText.size + 1}`);
            ids.set(`${ids.size + 1}`, t);
          }
          return byText.get(t)!;
        };
        const given = {
          who: id(texts.who),
          what: id(texts.what),
          ...(texts.detail === undefined ? {} : { detail: id(texts.detail) }),
          ...(texts.message === undefined ? {} : { message: id(texts.message) }),
        };
        const element = compactElement(o, given, texts);
        if (!element.includes("\tJ\t")) packed += 1;
        expect(plain(unpackOrder(element, (i) => ids.get(i)!))).toEqual(o);
        // The line a list prints reads the same from the element as from the whole order.
        expect(plain(lineOfElement(element, (i) => ids.get(i)!))).toEqual(plain(orderLine(o)));
      }),
      { numRuns: 500 },
    );
    expect(packed).toBeGreaterThan(300); // the rest: empty strings and the like, kept as JSON
  });

  it("when a provider's message spells out the order's values, then its template gives it back exactly", () => {
    fc.assert(
      fc.property(order, text, text, (o, before, after) => {
        const sn = o.result?.sn ?? "";
        const name = o.result?.destinationName ?? "";
        const message = `${before}Top up for ${name} ok. SN: ${sn}${after}{${sn}}`;
        expect(fillMessage(messageTemplate(message, o), o)).toBe(message);
      }),
      { numRuns: 500 },
    );
  });

  const movement: fc.Arbitrary<Movement> = fc.record({
    at: iso,
    kind: fc.constantFrom(
      "deposit" as const,
      "correction" as const,
      "hold" as const,
      "spend" as const,
      "release" as const,
    ),
    ref: fc.oneof(
      time.map((ms) => newRefId("TG", new Date(ms))),
      fc.constantFrom("^x", "\\y", "DP1", "a\tb"),
      fc.stringMatching(/^[A-Z0-9]{1,25}$/),
    ),
    amount: int,
    saldo: int,
    held: int,
  });

  it("when any statement is written line by line or packed in a chunk, then it reads back the same", () => {
    fc.assert(
      fc.property(fc.array(movement, { maxLength: 80 }), (list) => {
        // A chunk often repeats refs (hold, then spend) and follows its own arithmetic.
        const withPairs = list.flatMap((m) =>
          m.kind === "hold" ? [m, { ...m, kind: "spend" as const, amount: m.amount === 0 ? 0 : -m.amount }] : [m],
        );
        for (const m of withPairs) if (!m.ref.includes("\t")) expect(movementFromLine(movementLine(m))).toEqual(m);
        expect(unpackMovements(packMovements(withPairs))).toEqual(withPairs);
      }),
      { numRuns: 300 },
    );
  });
});
