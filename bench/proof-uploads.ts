/**
 * 60 proof uploads at once (9 MB each, as the page's form) against the built bot (`node
 * dist/main.js`, `npm run build` first), on loopback with the fake Bot API: the process's resident
 * memory before and at its peak (Linux VmRSS and VmHWM), the answers by status, and whether
 * /healthz answered while they came. Run by hand: `npx tsx bench/proof-uploads.ts`.
 */
import { readFileSync } from "node:fs";
import type { FakeUser } from "../test/e2e/fake-bot-api.js";
import { ADMIN, createWorld } from "../test/e2e/world.js";
import { signInitData } from "../test/helpers/init-data.js";
import { freePort } from "../test/helpers/redis.js";

const UPLOADS = 60;
const SIZE = 9 * 1024 * 1024;
const users: FakeUser[] = [
  { id: 5005, first_name: "Budi", language_code: "id" },
  { id: 5006, first_name: "Dewi", language_code: "en" },
];

const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb("VmRSS") / 1024), peakMb: Math.round(kb("VmHWM") / 1024) };
};

const world = await createWorld();
try {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const bot = await world.runProcess({
    ADMIN_IDS: String(ADMIN.id),
    RESELLER_IDS: users.map((u) => u.id).join(","),
    PORT: String(port),
    WEBAPP_URL: "https://shop.example.com",
  });
  const pid = bot.process!.child.pid!;
  world.fake.sendText(ADMIN, "/payinfo BCA 1234567890 a.n. Toko Maju");
  await world.waitText(ADMIN, /instructions set/);
  const auth = (u: FakeUser) => ({ authorization: `tma ${signInitData(u, world.fake.token)}` });
  const ids: Array<{ id: string; user: FakeUser }> = [];
  for (const user of users)
    for (let i = 1; i <= 3; i++) {
      const res = await fetch(`${base}/app/api/reseller/deposit-requests`, {
        method: "POST",
        headers: { ...auth(user), "content-type": "application/json" },
        body: JSON.stringify({ amount: 100_000 + i * 1000, requestId: `bench-upload-${user.id}-${i}` }),
      });
      ids.push({ id: ((await res.json()) as { request: { id: string } }).request.id, user });
    }
  const before = memory(pid);
  // A PNG's first bytes, then zeros: a picture as far as the first bytes tell.
  const png = Buffer.alloc(SIZE);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png);
  const statuses = new Map<number, number>();
  let health = "not asked";
  const uploads = Array.from({ length: UPLOADS }, async (_, i) => {
    const { id, user } = ids[i % ids.length]!;
    const form = new FormData();
    form.append("file", new File([png], "bukti.png", { type: "image/png" }));
    const res = await fetch(`${base}/app/api/reseller/deposit-requests/${id}/proof`, {
      method: "POST",
      headers: auth(user),
      body: form,
    }).catch(() => undefined);
    statuses.set(res?.status ?? 0, (statuses.get(res?.status ?? 0) ?? 0) + 1);
    await res?.body?.cancel();
  });
  const healthz = fetch(`${base}/healthz`).then(
    (r) => (health = `HTTP ${r.status}`),
    () => (health = "no answer"),
  );
  await Promise.all([...uploads, healthz]);
  const after = memory(pid);
  console.log(
    JSON.stringify(
      {
        uploads: UPLOADS,
        bytesEach: SIZE,
        rssBeforeMb: before.rssMb,
        peakRssMb: after.peakMb,
        rssAfterMb: after.rssMb,
        statuses: Object.fromEntries(statuses),
        healthz: health,
      },
      null,
      2,
    ),
  );
} finally {
  // Its check of every message sent can outgrow a string when the bot sent many 9 MB photos.
  await world.cleanup().catch((err: unknown) => console.error(`cleanup: ${String(err)}`));
}
