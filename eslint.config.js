// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * typescript-eslint's type-checked rules over everything TypeScript in the repository. `npm run
 * lint` runs this and Prettier's check; CI fails on any warning.
 */
export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", "eslint.config.js"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      // Floating promises are bugs in a bot (a lost error, an update that "finished" too early);
      // a deliberate fire-and-forget is written `void promise`.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-empty": ["error", { allowEmptyCatch: false }],
      // The memory implementations of async interfaces have nothing to await, by design.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    // Build scripts are plain JavaScript outside the TypeScript project: the untyped rules only.
    files: ["scripts/**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: { process: "readonly" } },
  },
  {
    // dependency-cruiser's rules (`npm run lint`) are a CommonJS file at the root, outside the
    // TypeScript project: the untyped rules only.
    files: [".dependency-cruiser.cjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: "commonjs",
      globals: { module: "writable" },
    },
  },
  {
    // Tests and the test doubles drive untyped JSON (Telegram payloads) on purpose.
    files: ["test/**/*.ts", "bench/**/*.ts", "chaos/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
);
