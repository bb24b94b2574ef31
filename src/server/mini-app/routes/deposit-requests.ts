import { createHash } from "node:crypto";
import { Hono, type Context } from "hono";
import { z } from "zod";
import { MAX_DEPOSIT } from "../../../deposits/admin-deposits.js";
import { MAX_PROOF_BYTES, MAX_REASON } from "../../../deposits/request-service.js";
import type { DepositRequest } from "../../../deposits/request-store.js";
import { proofType } from "../../../deposits/proof-file.js";
import { MAX_PAY_INFO } from "../../../shop/pay-info.js";
import type { MiniAppEnv } from "../auth.js";
import type { MiniAppDeps } from "../deps.js";
import { invalid, jsonBody, notFound, paramsOf } from "../errors.js";
import { createUploadSlots, readCapped } from "../uploads.js";

/** The largest proof the page may upload (Telegram takes photos up to 10 MB from a bot). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** A multipart form's own bytes around the file (boundaries, headers): a form is capped at the file's cap plus this. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
/** Proof uploads read at once by this process; more wait (429) instead of filling its memory. */
export const MAX_UPLOADS_AT_ONCE = 4;
/** What a 429 asks the page to wait before trying again, in seconds. */
const UPLOAD_RETRY_AFTER_S = 5;

const requestIdParam = paramsOf(z.object({ id: z.string().regex(/^DR[0-9A-Z]{19}$/) }));

const approveBody = z.object({
  /** What the bank shows, when it is not the request's exact amount. */
  amount: z
    .number({ error: "must be a whole number of rupiah" })
    .int("must be a whole number of rupiah")
    .min(1, "must be 1 rupiah or more")
    .max(MAX_DEPOSIT, `at most ${MAX_DEPOSIT} rupiah`)
    .optional(),
});

const rejectBody = z.object({
  reason: z.string().trim().max(MAX_REASON, `at most ${MAX_REASON} characters`).optional(),
});

const payInfoBody = z.object({
  text: z.string().trim().min(1, "say how to pay").max(MAX_PAY_INFO, `at most ${MAX_PAY_INFO} characters`),
});

const askBody = z.object({
  amount: z.number({ error: "must be a whole number of rupiah" }).int("must be a whole number of rupiah"),
  /** The page's name for this request: sent again (a retry, a double tap), it asks nothing more. */
  requestId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8 to 64 letters, digits, _ or -"),
});

/**
 * A request as its reseller's pages show it (and every answer a reseller gets): never whether its
 * proof was sent before, which would name another request, perhaps another reseller's.
 */
export function requestView(r: DepositRequest, extra: { name?: string | undefined } = {}) {
  return {
    id: r.id,
    resellerId: r.resellerId,
    name: extra.name ?? null,
    amount: r.amount,
    code: r.code,
    exact: r.exact,
    state: r.state,
    /** Credited by an admin's own deposit (`/deposit USER_ID AMOUNT DR…`), not by Approve. */
    byHand: r.byHand !== undefined,
    createdAt: new Date(r.createdAt).toISOString(),
    expiresAt: new Date(r.expiresAt).toISOString(),
    proof: r.proof === undefined ? null : { kind: r.proof.kind, mime: r.proof.mime ?? null },
    credited: r.credited ?? null,
    reason: r.reason ?? null,
  };
}

/** A request as the admins' pages show it: with the request its proof was sent for before, if any. */
export function adminRequestView(r: DepositRequest, extra: { name?: string | undefined } = {}) {
  const view = requestView(r, extra);
  return {
    ...view,
    proof: view.proof === null ? null : { ...view.proof, sentBeforeFor: r.proof?.sentBeforeFor ?? null },
  };
}

/** An upload over the cap: refused (before its body is read, when its declared size says so). */
const tooLarge = (c: Context) => c.json({ error: "too-large" as const }, 413, { connection: "close" });

/** The `file` of a multipart form already read (and capped): its bytes, or undefined without one. */
async function fileOfForm(body: Buffer, contentType: string): Promise<Buffer | undefined> {
  try {
    const form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
    const file = form.get("file");
    return file instanceof Blob ? Buffer.from(await file.arrayBuffer()) : undefined;
  } catch {
    return undefined; // not a form with a file: the caller answers that no file came
  }
}

/** The answer to a decision on a request that was decided (or closed) before. */
const taken = (c: Context, r: DepositRequest) => c.json({ error: "taken" as const, request: requestView(r) }, 409);

/**
 * /admin/deposit-requests: the open requests with their proofs, and the same Approve (the exact
 * amount, or what the bank shows) and Reject as the chat, through the same service; the shop's
 * payment instructions. A proof's bytes are fetched by the server (the file's URL holds the bot
 * token) and served only as the image or PDF they are, never as anything a browser would run.
 */
export function adminDepositRequestRoutes(
  deps: Pick<MiniAppDeps, "depositRequests" | "payInfo" | "people" | "wallets" | "downloadFile" | "logger">,
) {
  const { depositRequests, payInfo, people } = deps;
  /** A decision on a request decided before: the admin is told who decided what, as the chat's notices say. */
  const decidedBefore = async (c: Context, r: DepositRequest) => {
    const by = r.decidedBy === undefined ? undefined : (await people.get([r.decidedBy])).get(r.decidedBy);
    return c.json(
      {
        error: "taken" as const,
        request: adminRequestView(r),
        decidedBy: r.decidedBy === undefined ? null : { id: r.decidedBy, name: by?.name ?? null },
      },
      409,
    );
  };
  return new Hono<MiniAppEnv>()
    .get("/", async (c) => {
      const open = await depositRequests.open();
      const names = await people.get(open.map((r) => r.resellerId));
      const saldos = await Promise.all(open.map((r) => deps.wallets.get(r.resellerId)));
      const info = await payInfo.get();
      return c.json(
        {
          requests: open.map((r, i) => ({
            ...adminRequestView(r, { name: names.get(r.resellerId)?.name }),
            saldo: saldos[i]!.saldo,
          })),
          payInfo: info === undefined ? null : { text: info.text, image: info.photo !== undefined },
        },
        200,
      );
    })
    .get("/:id/proof", requestIdParam, async (c) => {
      const r = await depositRequests.get(c.req.valid("param").id);
      if (r?.proof === undefined) return notFound(c);
      let bytes: Buffer;
      try {
        bytes = await deps.downloadFile(r.proof.fileId, MAX_PROOF_BYTES);
      } catch (err) {
        deps.logger.warn({ err, request: r.id }, "proof not fetched from Telegram");
        return c.json({ error: "internal" as const }, 502);
      }
      const kind = proofType(bytes);
      if (kind === undefined) return c.json({ error: "unsupported" as const }, 415);
      return c.body(new Uint8Array(bytes), 200, {
        "content-type": kind.type,
        "content-disposition": kind.inline ? "inline" : `attachment; filename="${r.id}.pdf"`,
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
        "cache-control": "private, max-age=300",
      });
    })
    .post("/:id/approve", jsonBody(approveBody), requestIdParam, async (c) => {
      const r = await depositRequests.approve(
        c.req.valid("param").id,
        c.get("viewer").userId,
        c.req.valid("json").amount,
      );
      if (r.kind === "not-found") return notFound(c);
      if (r.kind === "taken") return decidedBefore(c, r.request);
      return c.json({ request: adminRequestView(r.request), saldo: r.saldo }, 200);
    })
    .post("/:id/reject", jsonBody(rejectBody), requestIdParam, async (c) => {
      const id = c.req.valid("param").id;
      const r = await depositRequests.reject(id, c.get("viewer").userId);
      if (r.kind === "not-found") return notFound(c);
      if (r.kind === "taken") return decidedBefore(c, r.request);
      const reason = c.req.valid("json").reason;
      if (reason !== undefined && reason !== "") await depositRequests.reason(id, reason);
      return c.json({ request: adminRequestView((await depositRequests.get(id)) ?? r.request) }, 200);
    })
    .put("/payinfo", jsonBody(payInfoBody), async (c) => {
      const before = await payInfo.get();
      const text = c.req.valid("json").text;
      await payInfo.set({
        text,
        ...(before?.photo === undefined ? {} : { photo: before.photo }),
        by: c.get("viewer").userId,
        at: Date.now(),
      });
      return c.json({ payInfo: { text, image: before?.photo !== undefined } }, 200);
    })
    .delete("/payinfo", async (c) => {
      await payInfo.clear();
      return c.json({ payInfo: null }, 200);
    });
}

/**
 * /reseller/deposit-requests: a reseller's own requests, a new one (the same rules as /deposit in
 * the chat, once per page request), and Cancel of one still waiting for its proof.
 */
export function resellerDepositRequestRoutes(
  deps: Pick<MiniAppDeps, "depositRequests" | "payInfo" | "languageOf" | "sendProof">,
) {
  const { depositRequests, payInfo } = deps;
  const slots = createUploadSlots(MAX_UPLOADS_AT_ONCE);
  return (
    new Hono<MiniAppEnv>()
      .get("/", async (c) => {
        const viewer = c.get("viewer");
        const [mine, info] = await Promise.all([depositRequests.ofReseller(viewer.userId, 20), payInfo.get()]);
        return c.json(
          {
            requests: mine.map((r) => requestView(r)),
            payInfo: info === undefined ? null : { text: info.text, image: info.photo !== undefined },
            limits: {
              min: depositRequests.limits.min,
              max: depositRequests.limits.max,
              hours: depositRequests.limits.hours,
            },
          },
          200,
        );
      })
      .post("/", jsonBody(askBody), async (c) => {
        const viewer = c.get("viewer");
        const sent = c.req.valid("json");
        const lang = await deps.languageOf(viewer.userId, undefined);
        const r = await depositRequests.ask(
          { resellerId: viewer.userId, chatId: viewer.userId, lang },
          sent.amount,
          `a:${viewer.userId}:${sent.requestId}`,
        );
        switch (r.kind) {
          case "made":
            // Shown in the chat too: the proof is sent there, as a reply to it.
            await depositRequests.showInChat(r.request, r.payInfo);
            return c.json(
              {
                request: requestView(r.request),
                payInfo: { text: r.payInfo.text, image: r.payInfo.photo !== undefined },
              },
              200,
            );
          case "out-of-limits":
            return invalid(c, [{ path: "amount", message: `${r.min} to ${r.max} rupiah` }]);
          case "no-pay-info":
            return c.json({ error: "no-pay-info" as const }, 409);
          case "too-many":
            return c.json({ error: "too-many" as const, open: r.open }, 409);
          case "too-soon": {
            const seconds = Math.max(1, Math.ceil((r.until - Date.now()) / 1000));
            return c.json({ error: "too-soon" as const, until: new Date(r.until).toISOString() }, 429, {
              "retry-after": String(seconds),
            });
          }
          case "no-code":
            return c.json({ error: "no-code" as const }, 409);
          case "not-reseller":
            return c.json({ error: "forbidden" as const }, 403);
        }
      })
      /*
       * The proof, as the request's body (the file itself, with its type) or as a form's `file`.
       * Everything that needs no body is checked before a byte of it is kept: the init data, that the
       * request is the reseller's own and waits for a proof, the declared size, a free upload slot.
       * The body is then read with a hard cap, and its first bytes say what it is.
       */
      .post("/:id/proof", requestIdParam, async (c) => {
        const viewer = c.get("viewer");
        const id = c.req.valid("param").id;
        const mine = await depositRequests.get(id);
        if (mine === undefined || mine.resellerId !== viewer.userId) return notFound(c);
        if (mine.state !== "proof") return taken(c, mine);
        const contentType = c.req.header("content-type") ?? "";
        const form = /^multipart\/form-data\b/i.test(contentType);
        const cap = form ? MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES : MAX_UPLOAD_BYTES;
        const declared = c.req.header("content-length");
        if (declared !== undefined && !(Number(declared) <= cap)) return tooLarge(c);
        const release = slots.take(id);
        if (release === undefined)
          return c.json({ error: "busy" as const }, 429, { "retry-after": String(UPLOAD_RETRY_AFTER_S) });
        try {
          const body = await readCapped(c.req.raw.body, cap);
          if (body === "too-large") return tooLarge(c);
          const bytes = form ? await fileOfForm(body, contentType) : body;
          if (bytes === undefined || bytes.length === 0)
            return invalid(c, [{ path: "file", message: "send the proof as a file" }]);
          if (bytes.length > MAX_UPLOAD_BYTES) return tooLarge(c);
          const type = proofType(bytes);
          if (type === undefined)
            return c.json(
              {
                error: "unsupported" as const,
                issues: [
                  { path: "file", message: "not a JPEG, PNG or WebP image nor a PDF: its bytes are something else" },
                ],
              },
              415,
            );
          const kind = type.inline ? "photo" : "document";
          const sent = await deps.sendProof(viewer.userId, {
            bytes,
            kind,
            filename: `${id}.${type.type.split("/")[1]}`,
            caption: id,
          });
          const r = await depositRequests.proof(viewer.userId, id, {
            ...sent,
            kind,
            ...(kind === "document" ? { mime: type.type } : {}),
            sha256: createHash("sha256").update(bytes).digest("hex"),
          });
          if (r.kind === "attached") return c.json({ request: requestView(r.request) }, 200);
          if (r.kind === "closed") return taken(c, r.request);
          return notFound(c);
        } finally {
          release();
        }
      })
      .post("/:id/cancel", requestIdParam, async (c) => {
        const r = await depositRequests.cancel(c.req.valid("param").id, c.get("viewer").userId);
        if (r.kind === "not-found" || r.kind === "not-yours") return notFound(c);
        if (r.kind === "closed") return taken(c, r.request);
        return c.json({ request: requestView(r.request) }, 200);
      })
  );
}
