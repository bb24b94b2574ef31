/**
 * The schemas of the H2H API's answers and of its callback, for its OpenAPI document: each body
 * exactly (no field more, none less), so that the tests that check the API's real answers against
 * them catch any change of shape.
 */

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1). */
export type Schema = { [keyword: string]: unknown };

/** Every `error_code` the API sends. (`transaction/unknown` was sent by older versions only: an unknown outcome is now the pending answer.) */
export const ERROR_CODES = [
  "auth/invalid-credentials",
  "request/invalid-parameter",
  "request/not-found",
  "request/method-not-allowed",
  "request/rate-limited",
  "transaction/ref-id-already-exists",
  "transaction/failed",
  "transaction/not-found",
  "product/not-found",
  "product/unavailable",
  "destination/invalid",
  "balance/insufficient",
  "price/above-max",
  "shop/paused",
  "server/error",
] as const;

export type Code = (typeof ERROR_CODES)[number];

/** A reference to one of the document's schemas. */
export const schemaRef = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const schema = schemaRef;

const rupiah = (description: string): Schema => ({ type: "integer", description });

const TEST: Schema = {
  const: true,
  description: "Present (and true) only in answers to a test key: nothing was ordered, no saldo moved.",
};

/** An error body whose `error_code` is one of `codes`. */
export const errorOf = (codes: readonly Code[]): Schema => ({
  allOf: [schema("Error"), { type: "object", properties: { error_code: { enum: [...codes] } } }],
});

/** A status-1 body around `data`. */
export const okBody = (data: Schema): Schema => ({
  type: "object",
  required: ["status", "data"],
  additionalProperties: false,
  properties: { status: { const: 1 }, data, test: TEST },
});

/** The order as the partner reads it, final (`SUKSES`) or not yet (`PENDING`). */
function transactionData(state: "SUKSES" | "PENDING"): Schema {
  const pending = state === "PENDING";
  return {
    type: "object",
    required: [
      "trx_id",
      "ref_id",
      "destination",
      "destination_name",
      "message",
      "sn",
      "last_balance",
      "product_detail",
    ],
    additionalProperties: false,
    properties: {
      trx_id: {
        type: "string",
        minLength: 1,
        description:
          "The shop's own id of the order: a prefix, a six-digit segment and a digit string (`TG-261126-1187…`); the same in every answer and callback. Starts with `TEST` for a test key.",
      },
      ref_id: { type: "string", description: "Your ref_id, as sent." },
      destination: { type: "string", description: "The destination, exactly as sent." },
      destination_name: pending
        ? { const: "", description: "Not known yet." }
        : { type: "string", description: "The player's name, or an empty string where the provider gave none." },
      message: { type: "string", description: "The outcome in words (Bahasa Indonesia)." },
      sn: pending
        ? { const: "", description: "Not known yet." }
        : { type: "string", description: "The serial number of the top-up. Starts with `TEST` for a test key." },
      last_balance: rupiah("Your saldo: after this order in its answer, at the time of the answer in a status query."),
      product_detail: {
        type: "object",
        required: ["name", "code", "price", "rate", "priceRp", "status"],
        additionalProperties: false,
        properties: {
          name: { type: "string" },
          code: { type: "string" },
          price: rupiah("Your price (your tier's), in rupiah."),
          rate: { const: 1 },
          priceRp: rupiah("The same price."),
          status: {
            const: state,
            description: pending
              ? "The outcome is not known yet: the price stays held. Do not order again with a new ref_id; ask the status or wait for the callback."
              : "The top-up was made.",
          },
        },
      },
    },
  };
}

/** A page of one day's records, oldest first, 100 a page. */
const dayPage = (item: string): Schema => ({
  type: "object",
  required: ["date", "page", "pages", "total", "items"],
  additionalProperties: false,
  properties: {
    date: { type: "string", format: "date", description: "The day asked for (the shop's time zone)." },
    page: { type: "integer", minimum: 1 },
    pages: { type: "integer", minimum: 0, description: "How many pages the day has." },
    total: { type: "integer", minimum: 0, description: "How many records the day has." },
    items: { type: "array", maxItems: 100, items: schema(item) },
  },
});

/** The fields a callback adds at the top level of the status answer's body. */
const callbackFields: Schema = {
  ref_id: { type: "string", description: "Your ref_id." },
  trx_id: { type: "string", description: "The shop's id of the order." },
  event_id: {
    type: "string",
    minLength: 1,
    description:
      "The same on every retry and every resend of this outcome: keep the ones you handled and ignore a repeat.",
  },
  timestamp: {
    type: "string",
    format: "date-time",
    description: "When this attempt was sent (ISO 8601): refuse a body older than 5 minutes.",
  },
};

function callbackBody(body: Schema, required: string[]): Schema {
  const props = (body.properties ?? {}) as Schema;
  return {
    ...body,
    required: [...new Set([...(body.required as string[]), ...required, "event_id", "timestamp"])],
    properties: { ...props, ...callbackFields },
  };
}

const errorBody: Schema = {
  type: "object",
  required: ["status", "error_code", "error_msg"],
  additionalProperties: false,
  properties: {
    status: { const: 0 },
    error_code: schema("ErrorCode"),
    error_msg: { type: "string", description: "What is wrong, in words (for people, not for code)." },
    ref_id: { type: "string", description: "With `transaction/failed`: your ref_id." },
    trx_id: { type: "string", description: "With `transaction/failed`: the shop's id of the order." },
    test: TEST,
  },
  // A failed order names itself, so that a partner can book the refund against it.
  if: { type: "object", properties: { error_code: { const: "transaction/failed" } } },
  then: { required: ["ref_id", "trx_id"] },
};

/** The document's `components.schemas`. */
export const componentSchemas: Record<string, Schema> = {
  ErrorCode: { type: "string", enum: [...ERROR_CODES] },
  Error: errorBody,
  SuccessBody: okBody(transactionData("SUKSES")),
  PendingBody: okBody(transactionData("PENDING")),
  BalanceBody: okBody({
    type: "object",
    required: ["balance", "held"],
    additionalProperties: false,
    properties: {
      balance: rupiah("What you can spend."),
      held: { ...rupiah("Held for orders whose outcome is not known yet; not part of `balance`."), minimum: 0 },
    },
  }),
  ProductsBody: okBody({ type: "array", items: schema("Product") }),
  Product: {
    type: "object",
    required: ["code", "name", "game", "price", "available", "rule", "example"],
    additionalProperties: false,
    properties: {
      code: { type: "string", description: "The item_code to order it with." },
      name: { type: "string" },
      game: { type: "string" },
      price: { ...rupiah("Your price."), minimum: 0 },
      available: {
        type: "boolean",
        description:
          "False while it is disabled, while every provider it is sold through rests, and while the shop is paused.",
      },
      rule: {
        type: "string",
        description:
          "The game's player-id pattern (a regular expression's source) a destination must match; empty when the game has none.",
      },
      example: { type: "string", description: "A destination in the game's form; empty when none is given." },
    },
  },
  TransactionsBody: okBody(dayPage("TransactionItem")),
  TransactionItem: {
    type: "object",
    required: ["ref_id", "trx_id", "code", "destination", "price", "state", "sn", "time"],
    additionalProperties: false,
    properties: {
      ref_id: { type: "string" },
      trx_id: { type: "string" },
      code: { type: "string" },
      destination: { type: "string" },
      price: rupiah("Your price."),
      state: { enum: ["success", "failed", "pending"] },
      sn: { type: "string", description: "Empty unless the state is success." },
      time: { type: "string", format: "date-time", description: "When it was ordered." },
    },
  },
  MutationsBody: okBody(dayPage("MutationItem")),
  MutationItem: {
    type: "object",
    required: ["time", "kind", "amount", "balance_after"],
    additionalProperties: false,
    properties: {
      time: { type: "string", format: "date-time" },
      kind: { enum: ["deposit", "order", "refund", "adjustment"] },
      amount: rupiah("Signed: positive into your saldo, negative out of it."),
      balance_after: rupiah("Your saldo after this movement."),
      ref_id: { type: "string", description: "Your ref_id, for an order or its refund." },
      trx_id: { type: "string", description: "The shop's id of the order, for an order or its refund." },
      note: { type: "string" },
    },
  },
  CallbackBody: {
    oneOf: [
      callbackBody(okBody(transactionData("SUKSES")), ["ref_id", "trx_id"]),
      callbackBody(
        {
          ...errorBody,
          properties: { ...(errorBody.properties as Schema), error_code: { const: "transaction/failed" } },
        },
        ["ref_id", "trx_id"],
      ),
    ],
  },
};
