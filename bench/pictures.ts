import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { ROOT } from "./settings.js";
import { f, percentile } from "./stats.js";

/** One kind of picture timed: its first drawing (loading the library and fonts) and the next ones. */
export interface PictureTiming {
  name: string;
  /** The first drawing in this process, the module's loading included (ms). */
  coldMs: number;
  /** Each of the next drawings (ms). */
  ms: number[];
  bytes: number;
  width: number;
  height: number;
}

export interface PicturesResult {
  samples: number;
  timings: PictureTiming[];
  /** RSS growth over all the drawings (bytes). */
  rssGrowth: number;
}

/**
 * Draws in a process of its own with the bot's Node flags (as \`npm start\` runs it), from dist/:
 * the first picture (the module and fonts loaded), then \`samples\` more, each after a turn of the
 * event loop as between updates; prints the timings and the RSS as JSON.
 */
const SCRIPT = `
const [samples, picturesDir, receipt] = [Number(process.argv[1]), process.argv[2], JSON.parse(process.argv[3])];
const rss0 = process.memoryUsage().rss;
const t0 = performance.now();
const { receiptPng } = await import(picturesDir + "/receipt-picture.js");
const first = await receiptPng(receipt);
const coldMs = performance.now() - t0;
const ms = [];
let peak = process.memoryUsage().rss;
for (let i = 0; i < samples; i++) {
  await new Promise((r) => setTimeout(r, 5));
  const t = performance.now();
  await receiptPng(receipt);
  ms.push(performance.now() - t);
  peak = Math.max(peak, process.memoryUsage().rss);
}
const size = { width: first.readUInt32BE(16), height: first.readUInt32BE(20) };
process.stdout.write(JSON.stringify({ coldMs, ms, bytes: first.length, ...size, rss0, peak }));
`;

/**
 * The pictures the bot draws (bench/pictures.ts): the customer's receipt, drawn as the bot draws it
 * when Receipt is tapped (satori lays it out with the bundled fonts, resvg writes the PNG), in a
 * process of its own with the bot's flags: the first one (the library and fonts loaded) and
 * \`samples\` more.
 */
export async function pictures(samples: number): Promise<PicturesResult> {
  const receipt = {
    shop: "Toko Berkah",
    title: "Top-up receipt",
    status: "SUCCESSFUL",
    time: "Nov 28, 2026, 14:05 GMT+7",
    rows: [
      { label: "Game", value: "Mobile Legends" },
      { label: "Product", value: "ML86 · 86 Diamonds" },
      { label: "Player ID", value: "12345678(1234)" },
      { label: "Player name", value: "Ayu#2722" },
    ],
    snLabel: "SN (serial number)",
    sn: "4101591234567890",
    refLabel: "Ref ID",
    refId: "TG1M8JB4T3VPATMZ0HRZH",
    thanks: "Thank you for your purchase!",
  };
  const run = spawnSync(
    process.execPath,
    [
      "--max-semi-space-size=4",
      "--input-type=module",
      "-e",
      SCRIPT,
      String(samples),
      pathToFileURL(`${ROOT}dist/pictures`).href,
      JSON.stringify(receipt),
    ],
    { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`pictures: the drawing process failed: ${run.stderr}`);
  const r = JSON.parse(run.stdout) as Omit<PictureTiming, "name"> & { rss0: number; peak: number };
  return {
    samples,
    timings: [{ name: "receipt", coldMs: r.coldMs, ms: r.ms, bytes: r.bytes, width: r.width, height: r.height }],
    rssGrowth: r.peak - r.rss0,
  };
}

/** The section "Pictures" of docs/benchmarks.md. */
export function picturesSection(
  p: PicturesResult | undefined,
  table: (h: string[], rows: string[][]) => string,
): string {
  const text = `What drawing a picture costs (\`bench/pictures.ts\`): the receipt a customer gets when Receipt is tapped,
drawn from \`dist/\` as the bot draws it (satori lays out the boxes with the bundled Inter and Roboto Mono fonts and
writes an SVG, resvg turns it into a PNG at twice the phone's width), in a process of its own with the bot's Node
flags. The first drawing loads the two libraries and the fonts (the bot loads them on the first picture, not at
start); the others follow one after the other, each after a turn of the event loop. A receipt costs that much CPU
once per tap, beside the updates the bot handles.`;
  if (p === undefined) return `## Pictures\n\n${text}\n\nNot measured in this run (\`BENCH_PICTURES=0\`).`;
  const rows = p.timings.map((t) => [
    t.name,
    f(t.coldMs, 0),
    `${f(percentile(t.ms, 50), 1)} / ${f(percentile(t.ms, 95), 1)}`,
    `${t.width} × ${t.height}`,
    f(t.bytes / 1024, 0),
  ]);
  return `## Pictures

${text}

${table(["picture", "first (ms)", `next ${p.samples}: p50 / p95 ms`, "PNG pixels", "PNG kB"], rows)}

The drawing process's RSS peaked ${f(p.rssGrowth / 1024 / 1024, 0)} MB above what it was before the first picture (the
libraries, the fonts, and each drawing's pixels until the garbage collector frees them: resvg's buffers live outside
V8's heap, so they go with the small objects that hold them, at the next collection).`;
}
