// Builds the Mini App's page (src/web → dist/web) with esbuild: one script and one stylesheet,
// minified, named by their content (cached for good by the browser), the page that loads them,
// each also gzip- and brotli-compressed (the bot serves the smallest one the browser takes), and
// dist/web/size.json with what the first load costs. Run by `npm run build`.
import { build } from "esbuild";
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const out = "dist/web";
rmSync(out, { recursive: true, force: true });
mkdirSync(`${out}/assets`, { recursive: true });

const result = await build({
  entryPoints: ["src/web/main.tsx"],
  bundle: true,
  minify: true,
  format: "esm",
  // Telegram's in-app browsers: recent Android WebView and iOS WKWebView (Safari 15+).
  target: ["es2020", "chrome90", "safari15"],
  jsx: "automatic",
  jsxImportSource: "preact",
  outdir: `${out}/assets`,
  entryNames: "app-[hash]",
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
});

const outputs = Object.keys(result.metafile.outputs).map((p) => p.replace(/^dist\/web\//, ""));
const script = outputs.find((p) => p.endsWith(".js"));
const style = outputs.find((p) => p.endsWith(".css"));
if (script === undefined || style === undefined)
  throw new Error(`web build: no script or style in ${outputs.join(", ")}`);

const html = readFileSync("src/web/index.html", "utf8")
  .replace("%SCRIPT%", `./${script}`)
  .replace("%STYLE%", `./${style}`);
writeFileSync(`${out}/index.html`, html);

const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else files.push(path);
  }
};
walk(out);
const sizes = {};
for (const file of files) {
  const raw = readFileSync(file);
  const gz = gzipSync(raw, { level: 9 });
  const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  writeFileSync(`${file}.gz`, gz);
  writeFileSync(`${file}.br`, br);
  sizes[file.replace(`${out}/`, "")] = { bytes: raw.length, gzip: gz.length, brotli: br.length };
}
// The first load also fetches the texts of one language (served gzipped by the bot): the larger counts.
const locales = ["en", "id"].map((lang) => gzipSync(readFileSync(`locales/${lang}.ftl`), { level: 9 }).length);
const firstLoad = Object.values(sizes).reduce((sum, s) => sum + s.gzip, 0) + Math.max(...locales);
writeFileSync(
  `${out}/size.json`,
  `${JSON.stringify({ files: sizes, localeGzip: { en: locales[0], id: locales[1] }, firstLoadGzip: firstLoad }, null, 2)}\n`,
);
process.stdout.write(`web: ${Object.keys(sizes).join(", ")}; first load ${(firstLoad / 1024).toFixed(1)} kB gzipped\n`);
