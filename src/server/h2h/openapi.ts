/**
 * The H2H API described for the developers who integrate with it: an OpenAPI 3.1 document,
 * served as it is at `GET /v1/openapi.json` (no key needed) so that their tools can read every
 * path, parameter, answer and error code, and the callback the shop POSTs to them (`webhooks`).
 * The tests check the API's real answers against the schemas here: when an answer changes, this
 * document changes with it.
 */

import { componentSchemas, errorOf, schemaRef, type Code, type Schema } from "./openapi-schemas.js";

interface Parameter {
  name: string;
  in: "query" | "header";
  required: boolean;
  description: string;
  schema: Schema;
}

type Ref = { $ref: string };

interface Response {
  description: string;
  headers?: Record<string, { description: string; required: boolean; schema: Schema }>;
  content?: Record<string, { schema: Schema; examples?: Record<string, { summary: string; value: unknown }> }>;
}

interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: Array<Parameter | Ref>;
  requestBody?: { required: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, Response | Ref>;
}

/** The parts of an OpenAPI 3.1 document this API uses. */
export interface OpenApiDocument {
  openapi: "3.1.0";
  jsonSchemaDialect: string;
  info: { title: string; version: string; description: string };
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, { get: Operation }>;
  webhooks: Record<string, { post: Operation }>;
  components: {
    schemas: Record<string, Schema>;
    parameters: Record<string, Parameter>;
    responses: Record<string, Response>;
  };
}

const schema = schemaRef;
const param = (name: string): Ref => ({ $ref: `#/components/parameters/${name}` });
const response = (name: string): Ref => ({ $ref: `#/components/responses/${name}` });

const json = (s: Schema, examples?: Record<string, { summary: string; value: unknown }>) => ({
  "application/json": examples === undefined ? { schema: s } : { schema: s, examples },
});

/** A body with status 1 and `data`, or (HTTP 200 too) one of the errors `codes`. */
const answer = (description: string, ok: Schema, codes: readonly Code[], examples?: Parameters<typeof json>[1]) => ({
  description,
  content: json({ oneOf: [ok, errorOf(codes)] }, examples),
});

const CREDENTIALS = [param("MitraId"), param("SecretKey")];

/** The answers every keyed operation may give besides its own. */
const COMMON: Record<string, Ref> = {
  "404": response("NotFound"),
  "405": response("MethodNotAllowed"),
  "429": response("RateLimited"),
  "500": response("ServerError"),
};

const SUCCESS_EXAMPLE = {
  status: 1,
  data: {
    trx_id: "TG-261126-1187462931183217662145316",
    ref_id: "INV-1001",
    destination: "12345678(1234)",
    destination_name: "Budi",
    message: "SUKSES 86 Diamonds ke 12345678(1234) a.n. Budi. SN: 8312094477",
    sn: "8312094477",
    last_balance: 80200,
    product_detail: { name: "86 Diamonds", code: "ML86", price: 19800, rate: 1, priceRp: 19800, status: "SUKSES" },
  },
};

const PENDING_EXAMPLE = {
  status: 1,
  data: {
    ...SUCCESS_EXAMPLE.data,
    destination_name: "",
    sn: "",
    message: "PENDING 86 Diamonds ke 12345678(1234). Status belum final; tunggu callback atau tanya status.",
    product_detail: { ...SUCCESS_EXAMPLE.data.product_detail, status: "PENDING" },
  },
};

const ORDER_EXAMPLES = {
  success: { summary: "Done", value: SUCCESS_EXAMPLE },
  pending: { summary: "Not known yet: the price is held", value: PENDING_EXAMPLE },
  used: {
    summary: "A ref_id used before",
    value: {
      status: 0,
      error_code: "transaction/ref-id-already-exists",
      error_msg: "this ref_id was used already; ask its status",
    },
  },
};

const ORDER_CODES: Code[] = [
  "transaction/ref-id-already-exists",
  "auth/invalid-credentials",
  "request/invalid-parameter",
  "product/not-found",
  "product/unavailable",
  "destination/invalid",
  "balance/insufficient",
  "price/above-max",
  "shop/paused",
  "transaction/failed",
];

const TRANSACTION = { oneOf: [schema("SuccessBody"), schema("PendingBody")] };

export const openApiDocument: OpenApiDocument = {
  openapi: "3.1.0",
  jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
  info: {
    title: "H2H API",
    version: "1.0.0",
    description: [
      "Order game top-ups from this shop by HTTP, paid from your saldo at your tier's price, exactly once per `ref_id`.",
      "Every operation is a `GET` with its parameters in the query string, your `mitra_id` and `secret_key` among them (keep the key out of your logs).",
      "Answers are HTTP 200 with `status: 1` and `data`, or `status: 0` with `error_code` and `error_msg`; 404 (a path not written exactly as here, a trailing slash included), 405 (another method, with `Allow`), 429 (with `Retry-After`) and 500 carry a status-0 body too.",
      "An order whose outcome is not known when its answer is due is answered pending (`status: 1`, `product_detail.status: PENDING`): never order it again with a new ref_id; ask its status or wait for the callback (`webhooks`).",
      "A test key answers in the same shapes with `test: true` and orders nothing.",
    ].join("\n\n"),
  },
  tags: [
    { name: "orders", description: "Ordering and asking an order's status." },
    { name: "account", description: "Your saldo and the products offered to you." },
    { name: "reconcile", description: "One day of your orders and saldo movements, for your books." },
    { name: "documentation", description: "This document." },
  ],
  paths: {
    "/v1/transaction/partner": {
      get: {
        operationId: "order",
        summary: "Order a top-up",
        tags: ["orders"],
        description:
          "Holds your price from your saldo and orders, at most once per ref_id (also when sent twice at the same moment). The answer waits for the shop's provider up to the shop's TOPUP_TIMEOUT_MS (60 s by default): wait longer than that. A refusal before the price is held (credentials, parameters, product, destination, saldo, max_price, pause, rate) leaves the ref_id unused; once it is used every answer is the outcome or pending, and the same ref_id answers `transaction/ref-id-already-exists` for ever.",
        parameters: [param("Destination"), param("RefId"), param("ItemCode"), param("MaxPrice"), ...CREDENTIALS],
        responses: {
          "200": answer(
            "The order's outcome (`SUKSES`), pending (`PENDING`), or an error.",
            TRANSACTION,
            ORDER_CODES,
            ORDER_EXAMPLES,
          ),
          ...COMMON,
        },
      },
    },
    "/v1/transaction/status": {
      get: {
        operationId: "status",
        summary: "Ask an order's status",
        tags: ["orders"],
        description:
          "The order made with this ref_id: the success answer (its `last_balance` is your saldo now), pending while not known, or `transaction/failed` (the price was returned to your saldo) or `transaction/not-found` (no order was made with it: you may send it).",
        parameters: [param("RefId"), ...CREDENTIALS],
        responses: {
          "200": answer("The order as it stands, or an error.", TRANSACTION, [
            "auth/invalid-credentials",
            "request/invalid-parameter",
            "transaction/failed",
            "transaction/not-found",
          ]),
          ...COMMON,
        },
      },
    },
    "/v1/balance": {
      get: {
        operationId: "balance",
        summary: "Your saldo",
        tags: ["account"],
        description: "What you can spend, and what is held for orders whose outcome is not known yet.",
        parameters: [...CREDENTIALS],
        responses: {
          "200": answer("Your saldo.", schema("BalanceBody"), ["auth/invalid-credentials"], {
            balance: {
              summary: "80,200 to spend, nothing held",
              value: { status: 1, data: { balance: 80200, held: 0 } },
            },
          }),
          ...COMMON,
        },
      },
    },
    "/v1/products": {
      get: {
        operationId: "products",
        summary: "The products offered to you",
        tags: ["account"],
        description: "The products with a price for your tier, at that price, with each game's player-id rule.",
        parameters: [...CREDENTIALS],
        responses: {
          "200": answer("The products.", schema("ProductsBody"), ["auth/invalid-credentials"]),
          ...COMMON,
        },
      },
    },
    "/v1/transactions": {
      get: {
        operationId: "transactions",
        summary: "Your orders of one day",
        tags: ["reconcile"],
        description:
          "Every order you made that day (the shop's time zone), oldest first, 100 a page. A test key gets empty pages.",
        parameters: [param("Date"), param("Page"), ...CREDENTIALS],
        responses: {
          "200": answer("A page of the day's orders.", schema("TransactionsBody"), [
            "auth/invalid-credentials",
            "request/invalid-parameter",
          ]),
          ...COMMON,
        },
      },
    },
    "/v1/mutations": {
      get: {
        operationId: "mutations",
        summary: "Your saldo's movements of one day",
        tags: ["reconcile"],
        description:
          "Deposits, orders, refunds and adjustments of that day (the shop's time zone), oldest first, 100 a page, with the saldo after each. A test key gets empty pages.",
        parameters: [param("Date"), param("Page"), ...CREDENTIALS],
        responses: {
          "200": answer("A page of the day's movements.", schema("MutationsBody"), [
            "auth/invalid-credentials",
            "request/invalid-parameter",
          ]),
          ...COMMON,
        },
      },
    },
    "/v1/openapi.json": {
      get: {
        operationId: "openapi",
        summary: "This document",
        tags: ["documentation"],
        description: "The OpenAPI 3.1 description of this API. No key needed.",
        responses: {
          "200": {
            description: "The document.",
            content: json({ type: "object", required: ["openapi", "info", "paths"] }),
          },
          "404": response("NotFound"),
          "405": response("MethodNotAllowed"),
        },
      },
    },
  },
  webhooks: {
    transactionResult: {
      post: {
        operationId: "transactionResult",
        summary: "An order's outcome, POSTed to your callback URL",
        tags: ["orders"],
        description:
          "Sent for an order whose first answer was not final (pending, or none: you hung up, or the shop stopped before answering) once its outcome is known. The body is the status answer with `ref_id`, `trx_id`, `event_id` and `timestamp` added at its top level. Check `X-Signature` on the raw body before trusting it. Any 2xx acknowledges it; anything else, a redirect, or no answer within 10 s, and it is sent again after 1 minute, 2, 4, … up to every hour, for 24 hours.",
        parameters: [
          {
            name: "X-Signature",
            in: "header",
            required: true,
            description: "`sha256=` and the hex HMAC-SHA256 of the raw body, keyed with your signing secret.",
            schema: { type: "string", pattern: "^sha256=[0-9a-f]{64}$" },
          },
        ],
        requestBody: { required: true, content: json(schema("CallbackBody")) },
        responses: {
          "200": { description: "Acknowledged (any 2xx): it is not sent again." },
        },
      },
    },
  },
  components: {
    schemas: componentSchemas,
    parameters: {
      MitraId: {
        name: "mitra_id",
        in: "query",
        required: true,
        description: "Your partner id: `P` and ten letters or digits for a live key, `T` for a test key.",
        schema: { type: "string", pattern: "^[PT][0-9A-HJKMNP-TV-Z]{10}$" },
      },
      SecretKey: {
        name: "secret_key",
        in: "query",
        required: true,
        description: "Your secret key (43 URL-safe characters). Never log it.",
        schema: { type: "string", minLength: 1 },
      },
      RefId: {
        name: "ref_id",
        in: "query",
        required: true,
        description: "Your own id of the order, case-sensitive; yours only (another partner may use the same).",
        schema: { type: "string", pattern: "^[A-Za-z0-9_.-]{1,64}$" },
      },
      ItemCode: {
        name: "item_code",
        in: "query",
        required: true,
        description: "A product's `code` from /v1/products.",
        schema: { type: "string", minLength: 1, maxLength: 64 },
      },
      Destination: {
        name: "destination",
        in: "query",
        required: true,
        description:
          "The player id, in the game's own form (its `rule` and `example` in /v1/products): taken as sent, checked, never rewritten. For a test key: starting with `FAIL` the order fails, with `PEND` it is pending and succeeds about 5 s later, anything else succeeds.",
        schema: { type: "string", minLength: 1, maxLength: 64 },
      },
      MaxPrice: {
        name: "max_price",
        in: "query",
        required: false,
        description:
          "The most you will pay (rupiah): a higher price is refused with `price/above-max` and the ref_id stays unused.",
        schema: { type: "integer", minimum: 0 },
      },
      Date: {
        name: "date",
        in: "query",
        required: true,
        description: "The day, `YYYY-MM-DD`, in the shop's time zone.",
        schema: { type: "string", format: "date", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" },
      },
      Page: {
        name: "page",
        in: "query",
        required: false,
        description: "The page, from 1.",
        schema: { type: "integer", minimum: 1, default: 1 },
      },
    },
    responses: {
      NotFound: {
        description: "No such operation: paths match exactly (a trailing slash names none).",
        content: json(errorOf(["request/not-found"])),
      },
      MethodNotAllowed: {
        description: "Another method than GET (HEAD included).",
        headers: {
          Allow: { description: "The one method allowed.", required: true, schema: { const: "GET" } },
        },
        content: json(errorOf(["request/method-not-allowed"])),
      },
      RateLimited: {
        description:
          "Too many requests (your allowance per second, or too many wrong keys from your address): nothing was done, the ref_id was not used; send it again after `Retry-After` seconds.",
        headers: {
          "Retry-After": {
            description: "Seconds to wait.",
            required: true,
            schema: { type: "integer", minimum: 1 },
          },
        },
        content: json(errorOf(["request/rate-limited"])),
      },
      ServerError: {
        description:
          "The shop could not answer (its storage is down). Never for an order whose ref_id was used: that one is answered pending.",
        content: json(errorOf(["server/error"])),
      },
    },
  },
};
