import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCatalog } from "../../src/catalog/catalog.js";
import { createSandboxProvider, type SandboxProvider } from "../../src/topup/sandbox.js";
import type { World } from "./world.js";

export const BACKUP_SECRET = "sk-backup-DO-NOT-LEAK-7d21";

/**
 * A second sandbox as the provider `backup` of a world (TOPUP_PROVIDERS=main,backup): it sells every
 * product of the catalogue (100 more than main) and ML86 as MLBB86 too. Stopped with the world.
 */
export async function addBackup(world: World): Promise<SandboxProvider> {
  const catalog = await loadCatalog("catalog.json");
  if (!catalog.ok) throw new Error(catalog.errors.join("\n"));
  const backup = createSandboxProvider({
    mitraId: "M-backup",
    secretKey: BACKUP_SECRET,
    products: [
      ...catalog.catalog.games.flatMap((g) =>
        g.products.map((p) => ({ code: p.code, name: p.name, priceRp: (p.price ?? 10_000) - 400 })),
      ),
      { code: "MLBB86", name: "86 Diamonds", priceRp: 19_400 },
    ],
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

/**
 * The catalogue file with ML86 bought from main as `NOPE86` (which main does not sell: it refuses
 * with product/not-found, a failover code), then from backup as MLBB86. Its path, for CATALOG_FILE.
 */
export async function routedCatalog(): Promise<string> {
  const catalog = JSON.parse(await readFile("catalog.json", "utf8")) as {
    games: Array<{ products: Array<{ code: string; routes?: unknown }> }>;
  };
  const ml86 = catalog.games.flatMap((g) => g.products).find((p) => p.code === "ML86")!;
  ml86.routes = [
    { provider: "main", code: "NOPE86" },
    { provider: "backup", code: "MLBB86" },
  ];
  const dir = await mkdtemp(join(tmpdir(), "backup-"));
  const file = join(dir, "catalog.json");
  await writeFile(file, JSON.stringify(catalog));
  return file;
}
