import { readFile } from "node:fs/promises";
import { createSandboxProvider, SANDBOX_MITRA_ID, SANDBOX_SECRET_KEY, type SandboxProduct } from "./sandbox.js";

/**
 * `npm run sandbox`: the sandbox provider alone, selling the products of the catalogue file, so a
 * bot (or curl) can be pointed at it with TOPUP_BASE_URL. Configured by environment variables:
 * SANDBOX_PORT or PORT (8090), SANDBOX_MITRA_ID, SANDBOX_SECRET_KEY, CATALOG_FILE (catalog.json),
 * SANDBOX_LATENCY_MS (0).
 */

const DEFAULT_PRICE_RP = 10_000;

/** An unset or blank variable is absent; anything else must be a non-negative integer. */
function intFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a non-negative integer, got "${raw.slice(0, 20)}"`);
  return Number(raw);
}

function textFromEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === "" ? undefined : raw;
}

/**
 * The products of the catalogue file, read leniently: the sandbox needs only code, name and price,
 * and the catalogue module is not imported so the sandbox stays a standalone program.
 */
async function loadProducts(file: string): Promise<SandboxProduct[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch (err) {
    throw new Error(`CATALOG_FILE ${file} cannot be read as JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const games = (parsed as { games?: unknown })?.games;
  if (!Array.isArray(games)) throw new Error(`CATALOG_FILE ${file} has no "games" array`);
  const products: SandboxProduct[] = [];
  for (const game of games as Array<{ products?: unknown }>) {
    for (const p of Array.isArray(game?.products) ? (game.products as Array<Record<string, unknown>>) : []) {
      if (typeof p?.code !== "string" || typeof p.name !== "string") {
        throw new Error(`CATALOG_FILE ${file}: every product needs a code and a name`);
      }
      const price = typeof p.price === "number" ? p.price : DEFAULT_PRICE_RP;
      products.push({ code: p.code, name: p.name, priceRp: price });
    }
  }
  return products;
}

async function main(env: NodeJS.ProcessEnv): Promise<void> {
  const file = textFromEnv(env, "CATALOG_FILE") ?? "catalog.json";
  const port = intFromEnv(env, "SANDBOX_PORT") ?? intFromEnv(env, "PORT") ?? 8090;
  const mitraId = textFromEnv(env, "SANDBOX_MITRA_ID") ?? SANDBOX_MITRA_ID;
  const products = await loadProducts(file);
  const sandbox = createSandboxProvider({
    mitraId,
    secretKey: textFromEnv(env, "SANDBOX_SECRET_KEY") ?? SANDBOX_SECRET_KEY,
    products,
    latencyMs: intFromEnv(env, "SANDBOX_LATENCY_MS") ?? 0,
  });
  const url = await sandbox.listen(port, "127.0.0.1");
  // The secret itself is not printed: it may have come from the environment.
  process.stdout.write(
    `sandbox provider (no real orders) at ${url}, mitra_id: ${mitraId}, ` +
      `secret: (see SANDBOX_SECRET_KEY, default ${SANDBOX_SECRET_KEY}), ${products.length} products from ${file}\n`,
  );

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void sandbox.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main(process.env).catch((err: unknown) => {
  process.stderr.write(`sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
