import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * When the bot runs from `dist/` in a checkout (`npm start`), a source file changed after the
 * last `npm run build` means the bot runs old code: say so at start. Costs a few stat calls;
 * says nothing where there are no sources (the Docker image).
 */
export function staleBuildWarning(entryUrl: string): string | undefined {
  const entry = fileURLToPath(entryUrl);
  const sources = join(entry, "..", "..", "src");
  let built: number;
  try {
    // `npm run build` stamps this file even when tsc found nothing to rewrite.
    built = statSync(join(entry, "..", ".tsbuildinfo")).mtimeMs;
    if (!statSync(sources).isDirectory()) return undefined;
  } catch {
    return undefined; // no sources beside the build (an image, a copy of dist/): nothing to compare
  }
  const newer = (dir: string): string | undefined => {
    for (const item of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, item.name);
      if (item.isDirectory()) {
        const found = newer(path);
        if (found !== undefined) return found;
      } else if (item.name.endsWith(".ts") && statSync(path).mtimeMs > built) return path;
    }
    return undefined;
  };
  const changed = newer(sources);
  return changed === undefined
    ? undefined
    : `${changed} changed after the last build: run \`npm run build\` (npm start runs dist/)`;
}
