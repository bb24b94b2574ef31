import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCatalog } from "../../src/catalog/catalog.js";
import { createSandboxProvider, type SandboxProduct, type SandboxProvider } from "../../src/topup/sandbox.js";
import type { World } from "./world.js";

export const BACKUP_SECRET = "sk-backup-DO-NOT-LEAK-7d21";

/**
 * A second sandbox as the provider `backup` of a world (TOPUP_PROVIDERS=main,backup): by default it
 * sells every product of the catalogue (100 more than main) and ML86 as MLBB86 too; `products` and
 * `latencyMs` as a test needs them. Stopped with the world.
 */
export async function addBackup(
  world: World,
  opts: { products?: SandboxProduct[]; latencyMs?: number } = {},
): Promise<SandboxProvider> {
  const backup = createSandboxProvider({
    mitraId: "M-backup",
    secretKey: BACKUP_SECRET,
    products: opts.products ?? (await everyProduct()),
    ...(opts.latencyMs === undefined ? {} : { latencyMs: opts.latencyMs }),
  });
  await backup.listen(0, "127.0.0.1");
  world.onCleanup(() => backup.close());
  Object.assign(world.env, {
    TOPUP_PROVIDERS: "main,backup",
    TOPUP_BACKUP_BASE_URL: backup.url,
    TOPUP_BACKUP_MITRA_ID: "M-backup",
    TOPUP_BACKUP_SECRET_KEY: BACKUP_SECRET,
    TOPUP_BACKUP_TIMEOUT_MS: "3000",
  });
  return backup;
}

/** The catalogue's products at 400 below their selling price, and ML86 as MLBB86 at 19,400. */
async function everyProduct(): Promise<SandboxProduct[]> {
  const catalog = await loadCatalog("catalog.json");
  if (!catalog.ok) throw new Error(catalog.errors.join("\n"));
  return [
    ...catalog.catalog.games.flatMap((g) =>
      g.products.map((p) => ({ code: p.code, name: p.name, priceRp: (p.price ?? 10_000) - 400 })),
    ),
    { code: "MLBB86", name: "86 Diamonds", priceRp: 19_400 },
  ];
}

/**
 * The catalogue file with ML86 bought from main as `NOPE86` (which main does not sell: it refuses
 * with product/not-found, a failover code), then from backup as `backupCode`. Its path, for CATALOG_FILE.
 */
export async function routedCatalog(backupCode = "MLBB86"): Promise<string> {
  const catalog = JSON.parse(await readFile("catalog.json", "utf8")) as {
    games: Array<{ products: Array<{ code: string; routes?: unknown }> }>;
  };
  const ml86 = catalog.games.flatMap((g) => g.products).find((p) => p.code === "ML86")!;
  ml86.routes = [
    { provider: "main", code: "NOPE86" },
    { provider: "backup", code: backupCode },
  ];
  const dir = await mkdtemp(join(tmpdir(), "backup-"));
  const file = join(dir, "catalog.json");
  await writeFile(file, JSON.stringify(catalog));
  return file;
}
