import { fileURLToPath } from "node:url";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono, type MiddlewareHandler } from "hono";
import { compress } from "hono/compress";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import { miniAppApi } from "./api.js";
import { initDataAuth, type MiniAppEnv } from "./auth.js";
import type { MiniAppDeps } from "./deps.js";
import type { ApiError } from "./errors.js";

/** The page as `npm run build` bundles it (src/web → dist/web), and the texts it shares with the chat. */
const WEB_DIR = fileURLToPath(new URL("../../../dist/web", import.meta.url));
const LOCALES_DIR = fileURLToPath(new URL("../../../locales", import.meta.url));

/**
 * Hono's security headers, with a content security policy for the page: only what the page itself
 * loads (scripts, styles, data and pictures of the bot's own address), nothing from another host, no
 * framing by other sites than Telegram's web client. X-Frame-Options is left out: it knows only
 * SAMEORIGIN or DENY, and would keep web.telegram.org from showing the page in its frame.
 */
const securityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    // blob: a deposit request's proof, fetched with the init data and shown from memory.
    imgSrc: ["'self'", "data:", "blob:"],
    connectSrc: ["'self'"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
    frameAncestors: ["'self'", "https://web.telegram.org", "https://*.telegram.org"],
  },
  xFrameOptions: false,
  referrerPolicy: "no-referrer",
});

/** Headers an answer may set for itself (a proof: a sandbox and a private cache), which the app's own do not replace. */
const OWN_HEADERS = ["content-security-policy", "cache-control", "x-content-type-options"] as const;

/**
 * `middleware` (the security headers) for every answer, except the headers that answer set itself:
 * a proof's `Content-Security-Policy: …; sandbox` and private cache are the ones the browser gets.
 */
function unlessSetByTheAnswer(middleware: MiddlewareHandler): MiddlewareHandler {
  return async (c, next) => {
    let own: Array<[string, string]> = [];
    await middleware(c, async () => {
      await next();
      own = OWN_HEADERS.flatMap((name): Array<[string, string]> => {
        const value = c.res.headers.get(name);
        return value === null ? [] : [[name, value]];
      });
    });
    for (const [name, value] of own) c.res.headers.set(name, value);
  };
}

/**
 * The shop's Mini App, mounted at /app: the page (index.html, its hashed
 * assets, the two locales) and its JSON interface under /app/api/, where every call must carry
 * valid Telegram init data (401 before anything else, unknown paths too), admins reach the admin
 * calls, resellers their own (403 for anyone else). No CORS: the page and its API share one origin.
 */
export function createMiniApp(deps: MiniAppDeps): Hono {
  const app = new Hono<MiniAppEnv>({ strict: false });
  const webDir = deps.webDir ?? WEB_DIR;
  const localesDir = deps.localesDir ?? LOCALES_DIR;

  app.use("*", unlessSetByTheAnswer(securityHeaders));
  app.use(
    "/api/*",
    initDataAuth({ botToken: deps.botToken, buyerOf: (id) => deps.access.buyerOf(id), logger: deps.logger }),
  );
  app.use("/api/*", async (c, next) => {
    await next();
    // Nothing of the API is kept by a cache, unless the answer says otherwise (a proof: private).
    if (!c.res.headers.has("cache-control")) c.header("cache-control", "no-store");
  });

  app.route("/api", miniAppApi(deps));
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
  // The HTTP server only mounts it; the routes' own types are `MiniAppApi` (api.ts), the page's contract.
  return app as unknown as Hono;
}
