import { readFile } from "node:fs/promises";
import { createSandboxProvider, SANDBOX_MITRA_ID, SANDBOX_SECRET_KEY, type SandboxProduct } from "./sandbox.js";

/** `npm run sandbox`: the sandbox provider alone, with the products of the catalogue file. */
async function main() {
  const file = process.env.CATALOG_FILE ?? "catalog.json";
  const catalog = JSON.parse(await readFile(file, "utf8")) as { games?: Array<{ products?: Array<{ code: string; name: string; price?: number }> }> };
  const products: SandboxProduct[] = (catalog.games ?? []).flatMap((g) =>
    (g.products ?? []).map((p) => ({ code: p.code, name: p.name, priceRp: p.price ?? 10_000 })),
  );
  const sandbox = createSandboxProvider({
    mitraId: process.env.SANDBOX_MITRA_ID ?? SANDBOX_MITRA_ID,
    secretKey: process.env.SANDBOX_SECRET_KEY ?? SANDBOX_SECRET_KEY,
    products,
    latencyMs: Number(process.env.SANDBOX_LATENCY_MS ?? 0),
  });
  const url = await sandbox.listen(Number(process.env.SANDBOX_PORT ?? process.env.PORT ?? 8090), "127.0.0.1");
  process.stdout.write(
    `sandbox provider (no real orders) on ${url}/v1/transaction/partner, mitra_id "${process.env.SANDBOX_MITRA_ID ?? SANDBOX_MITRA_ID}", ` +
      `secret_key from SANDBOX_SECRET_KEY (default "${SANDBOX_SECRET_KEY}"), ${products.length} products from ${file}\n`,
  );
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
