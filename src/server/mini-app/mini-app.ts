import { fileURLToPath } from "node:url";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { HTTPException } from "hono/http-exception";
import type { ApiError, Session } from "./api-types.js";
import type { MiniAppDeps } from "./deps.js";
import { initDataAuth, onlyFor, type MiniAppEnv } from "./auth.js";
import { adminRoutes } from "./routes-admin.js";
import { resellerRoutes } from "./routes-reseller.js";

/** The page as `npm run build` bundles it (src/web → dist/web), and the texts it shares with the chat. */
const WEB_DIR = fileURLToPath(new URL("../../../dist/web", import.meta.url));
const LOCALES_DIR = fileURLToPath(new URL("../../../locales", import.meta.url));

/**
 * Only what the page itself loads: scripts, styles, data and pictures of the bot's own address,
 * nothing from another host, no framing by other sites than Telegram's web client.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org",
].join("; ");

/**
 * The shop's Mini App (contract section 11), mounted at /app: the page (index.html, its hashed
 * assets, the two locales) and its JSON interface under /app/api/, where every call must carry
 * valid Telegram init data (401 before anything else, unknown paths too), admins reach the admin
 * calls, resellers their own (403 for anyone else). No CORS: the page and its API share one origin.
 */
export function createMiniApp(deps: MiniAppDeps): Hono {
  const app = new Hono<MiniAppEnv>({ strict: false });
  const webDir = deps.webDir ?? WEB_DIR;
  const localesDir = deps.localesDir ?? LOCALES_DIR;

  app.use(
    "/api/*",
    initDataAuth({ botToken: deps.botToken, buyerOf: (id) => deps.access.buyerOf(id), logger: deps.logger }),
  );
  app.use("/api/*", async (c, next) => {
    await next();
    c.header("cache-control", "no-store");
  });

  app.get("/api/session", onlyFor("admin", "reseller"), async (c) => {
    const viewer = c.get("viewer");
    const buyer = viewer.buyer!;
    const session: Session = {
      userId: viewer.userId,
      firstName: viewer.firstName,
      role: buyer.role === "reseller" ? "reseller" : "admin",
      ...(buyer.role === "reseller" ? { tier: buyer.tier } : {}),
      lang: await deps.languageOf(viewer.userId, viewer.languageCode),
      shopName: deps.shopName(),
      timeZone: deps.timeZone,
      today: deps.today(),
    };
    return c.json(session);
  });
  app.use("/api/admin/*", onlyFor("admin"));
  app.route("/api/admin", adminRoutes(deps));
  app.use("/api/reseller/*", onlyFor("reseller"));
  app.route("/api/reseller", resellerRoutes(deps));
  app.all("/api/*", (c) => c.json({ error: "not-found" }, 404));
  // A body that is not JSON (the validators' HTTPException): a bad request, said as the page reads it.
  app.onError((err, c) => {
    if (!(err instanceof HTTPException) || err.status >= 500) throw err;
    const answer: ApiError = { error: "invalid", issues: [{ path: "", message: err.message }] };
    return c.json(answer, err.status);
  });

  // The texts the chat uses, for the page (only these two files), compressed on the way.
  app.get(
    "/locales/:file{(en|id)\\.ftl}",
    compress(),
    async (c, next) => {
      await next();
      // Fluent files are text (serveStatic does not know .ftl; compress() only takes text types).
      if (c.res.status === 200) {
        c.res.headers.set("content-type", "text/plain; charset=utf-8");
        c.res.headers.set("cache-control", "no-cache");
      }
    },
    serveStatic({ root: localesDir, rewriteRequestPath: (p) => p.replace(/^.*\/locales/, "") }),
  );

  const page = serveStatic({
    root: webDir,
    // Bundles are compressed at build; the browser gets the smallest it takes.
    precompressed: true,
    rewriteRequestPath: (p) => p.replace(/^\/app/, ""),
    onFound: (path, c) => {
      // Hashed assets never change; the page itself is always asked for again.
      c.header("cache-control", /\/assets\//.test(path) ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  app.use("*", async (c, next) => {
    await next();
    c.header("content-security-policy", CONTENT_SECURITY_POLICY);
    c.header("x-content-type-options", "nosniff");
    c.header("referrer-policy", "no-referrer");
  });
  // /app without its slash: the page's own addresses (assets/, api/) are relative to /app/.
  app.get(
    "/",
    async (c, next) => {
      if (!new URL(c.req.url).pathname.endsWith("/")) return c.redirect("app/", 308);
      await next();
    },
    page,
  );
  app.get("/assets/*", page);
  return app as unknown as Hono;
}
