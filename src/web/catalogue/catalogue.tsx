import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { parseAmount } from "../../amounts.js";
import type { CatalogFile, CatalogProduct, CatalogView } from "../../server/mini-app/views.js";
import { ApiFailure, type AnswerOf } from "../client.js";
import type { Words } from "../i18n.js";
import {
  AmountField,
  Loaded,
  Notice,
  failureText,
  requestId,
  useApp,
  useBack,
  useBusy,
  useFirstInvalid,
  useLoad,
  useMainAction,
} from "../ui.js";
import { rebaseEdit, type Conflict } from "./rebase.js";
import { RoutesEditor } from "./routes-editor.js";

/** A change a new catalogue makes, as the check call answers it. */
type CatalogChange = AnswerOf<"checkCatalog">["changes"][number];
/** A price change that needs a second look, as the check call answers it. */
type CatalogWarning = AnswerOf<"checkCatalog">["warnings"][number];

/**
 * What the admin typed in a price box, read as the chat's /price reads it (`21.500`, `Rp21.500`,
 * `21,5rb`): a number when it is whole rupiah, else the text as typed (refused at its field).
 */
function priceOf(typed: string): number | string | undefined {
  const raw = typed.trim();
  if (raw === "") return undefined;
  const read = parseAmount(raw);
  return read.ok ? read.amount : raw;
}

/** The text of a price box for a price: `20000`, or what was typed. */
const shown = (value: unknown) => (typeof value === "number" || typeof value === "string" ? String(value) : "");

/**
 * A price box. It keeps what the admin typed (`Rp 21.500` stays so while they type, not turned
 * into `21500` at the first digit), shows beside it the rupiah it reads as (or, with examples, that
 * it reads as no amount), and gives the draft the amount, or the text when there is none.
 */
function PriceInput(props: {
  label: string;
  value: unknown;
  error: string | undefined;
  onPrice: (price: number | string | undefined) => void;
  testid: string;
}) {
  const [typed, setTyped] = useState(() => shown(props.value));
  // The draft changed from elsewhere (applied, or another edit's base): the box shows it.
  useEffect(() => {
    if (priceOf(typed) !== props.value) setTyped(shown(props.value));
  }, [props.value]);
  return (
    <AmountField
      label={props.label}
      typed={typed}
      onTyped={(text) => {
        setTyped(text);
        props.onPrice(priceOf(text));
      }}
      error={props.error}
      refuse
      format="page-price-format"
      placeholder=""
      quiet
      testid={props.testid}
    />
  );
}

/** One change of the diff, in words. */
function changeText(words: Words, c: CatalogChange): string {
  const { t, rp } = words;
  const price = (p: number | undefined) => (p === undefined ? t("page-price-none") : rp(p));
  switch (c.kind) {
    case "added":
      return t("page-diff-added", { code: c.code, name: c.name, game: c.game, price: price(c.price) });
    case "removed":
      return t("page-diff-removed", { code: c.code, name: c.name });
    case "price":
      return c.tier === undefined
        ? t("page-diff-price", { code: c.code, from: price(c.from), to: price(c.to) })
        : t("page-diff-price-tier", { code: c.code, tier: c.tier, from: price(c.from), to: price(c.to) });
    case "renamed":
      return t("page-diff-renamed", { code: c.code, from: c.from, to: c.to });
    case "moved":
      return t("page-diff-moved", { code: c.code, from: c.from, to: c.to });
    case "disabled":
      return t("page-diff-disabled", { code: c.code });
    case "enabled":
      return t("page-diff-enabled", { code: c.code });
    case "routes": {
      const routes = (list: typeof c.from) =>
        list === undefined ? t("page-routes-all") : list.map((r) => `${r.provider} ${r.code}`).join(" › ");
      return t("page-diff-routes", { code: c.code, from: routes(c.from), to: routes(c.to) });
    }
    case "player-id-rule":
      return t("page-diff-rule", { game: c.game });
  }
}

/** Why a price change needs a second look, in words: the loss per sale, or how far it moved. */
function warningText(words: Words, w: CatalogWarning): string {
  const { t, rp } = words;
  return w.kind === "below-cost"
    ? t("page-diff-warning-below-cost", { provider: rp(w.providerPrice), loss: rp(w.loss) })
    : t("page-diff-warning-far", { percent: w.percent, from: rp(w.from) });
}

/** The warnings that belong beside one change of the diff (its product's price, or that tier's). */
const warningsOf = (warnings: CatalogWarning[], c: CatalogChange) =>
  c.kind !== "price" ? [] : warnings.filter((w) => w.code === c.code && (w.tier ?? null) === (c.tier ?? null));

/** A field both the admin and somebody else changed meanwhile, in words: the admin's value is kept. */
function conflictText(words: Words, c: Conflict): string {
  const { t, rp } = words;
  if (c.kind === "gone") return t("page-catalogue-conflict-gone", { code: c.code });
  if (c.field.kind === "routes") return t("page-catalogue-conflict-routes", { code: c.code });
  if (c.field.kind === "name")
    return t("page-catalogue-conflict-name", { code: c.code, mine: String(c.mine), theirs: String(c.theirs) });
  // A price box may hold what the admin typed and the page could not read yet: shown as typed.
  const price = (p: unknown) => (typeof p === "number" ? rp(p) : typeof p === "string" ? p : t("page-price-none"));
  const vars = { code: c.code, mine: price(c.mine), theirs: price(c.theirs) };
  return c.field.tier === undefined
    ? t("page-catalogue-conflict-price", vars)
    : t("page-catalogue-conflict-tier", { ...vars, tier: c.field.tier });
}

type Step =
  | { kind: "edit" }
  | { kind: "review"; changes: CatalogChange[]; warnings: CatalogWarning[]; requestId: string }
  | { kind: "applied"; version: number; already: boolean };

/** What the page says about the last save: a line, and the problems or conflicts one by one. */
interface Said {
  kind: "error" | "info" | "done";
  text: string;
  lines?: string[];
}

/**
 * The catalogue, edited in place: names, prices, tier prices, offered or hidden, and (in a shop
 * with several providers) each product's routes. Review shows the
 * change as a diff; Confirm applies it once (the request names itself: a repeat is "already
 * applied"), with the same rules as a catalogue file sent in the chat (each problem shown at its
 * field, the first of them focused), and is refused when somebody changed the catalogue
 * meanwhile: then the admin's changes, field by field, are moved onto the newer one (theirs stay;
 * where both changed a field, the admin's is kept and shown to check), to be reviewed again.
 */
export function CataloguePage() {
  const { api } = useApp();
  const [view, reload] = useLoad(() => api.catalog(), []);
  return (
    <Loaded load={view} retry={reload}>
      {(v) => <Editor view={v} />}
    </Loaded>
  );
}

function Editor(props: { view: CatalogView }) {
  const { api, words } = useApp();
  const { t } = words;
  /** The catalogue this edit is against: what the bot said is in use. */
  const [base, setBase] = useState(props.view);
  const [draft, setDraft] = useState<CatalogFile>(() => structuredClone(props.view.catalog));
  const [step, setStep] = useState<Step>({ kind: "edit" });
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<Said | undefined>();
  const [busy, guard] = useBusy();
  const { root: top, show: showFirstInvalid } = useFirstInvalid<HTMLDivElement>();
  /** The draft as it is now, also for an answer that arrives after the admin typed on. */
  const latest = useRef(draft);
  latest.current = draft;
  const dirty = useMemo(() => JSON.stringify(draft) !== JSON.stringify(base.catalog), [draft, base]);

  const change = (g: number, p: number, update: (product: CatalogProduct) => CatalogProduct) => {
    setDraft((d) => ({
      games: d.games.map((game, gi) =>
        gi !== g ? game : { ...game, products: game.products.map((pr, pi) => (pi === p ? update(pr) : pr)) },
      ),
    }));
    setStep({ kind: "edit" });
  };

  /**
   * A failed save: nothing typed is lost. Refused by the rules: each problem in the notice (by game
   * and product) and at its field, the first field focused. Refused as stale (`sent` is the
   * catalogue the edit was made against): the edit is moved onto the catalogue as it is now.
   */
  const failed = (err: unknown, sent: CatalogView) => {
    const failure = err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" });
    if (failure.status === 422 && failure.body.issues !== undefined) {
      const found = failure.body.issues;
      setIssues(Object.fromEntries(found.map((i) => [i.path, i.message])));
      setNotice({
        kind: "error",
        text: t("page-catalogue-invalid", { count: found.length }),
        lines: found.map((i) =>
          i.where === undefined || i.where === ""
            ? i.message
            : t("page-catalogue-problem", { where: i.where, problem: i.message }),
        ),
      });
      setStep({ kind: "edit" });
      showFirstInvalid();
      return;
    }
    if (failure.status === 409 && failure.body.current !== undefined) {
      // Resending the whole stale copy would undo the other change: only the admin's fields move.
      const current = failure.body.current;
      const rebased = rebaseEdit(sent.catalog, latest.current, current.catalog);
      setBase(current);
      setDraft(rebased.catalog);
      setIssues({});
      setNotice({
        kind: "error",
        text: t("page-catalogue-stale", { version: current.version }),
        lines: rebased.conflicts.map((c) => conflictText(words, c)),
      });
      setStep({ kind: "edit" });
    } else {
      setNotice({ kind: "error", text: `${failureText(words, failure)} ${t("page-kept")}` });
    }
    top.current?.scrollIntoView();
  };

  const review = guard(async () => {
    setNotice(undefined);
    const sent = base;
    try {
      const check = await api.checkCatalog(sent.version, draft);
      setIssues({});
      setStep({ kind: "review", changes: check.changes, warnings: check.warnings, requestId: requestId() });
    } catch (err) {
      failed(err, sent);
    }
  });

  const confirm = guard(async (id: string) => {
    const sent = base;
    try {
      const applied = await api.applyCatalog(sent.version, draft, id);
      setBase(applied.view);
      setDraft(structuredClone(applied.view.catalog));
      setStep({ kind: "applied", version: applied.view.version, already: applied.outcome === "already" });
      setNotice(undefined);
    } catch (err) {
      failed(err, sent);
    }
  });

  useBack(step.kind === "review" ? () => setStep({ kind: "edit" }) : undefined);
  useMainAction(
    step.kind === "review"
      ? {
          text: t("page-catalogue-confirm"),
          onClick: () => void confirm(step.requestId),
          busy,
          disabled: step.changes.length === 0,
        }
      : dirty
        ? { text: t("page-catalogue-review"), onClick: () => void review(), busy }
        : undefined,
  );

  const said = notice === undefined ? null : <SaidNotice said={notice} />;

  if (step.kind === "review")
    return (
      <div ref={top}>
        <Review changes={step.changes} warnings={step.warnings} said={said} />
      </div>
    );

  return (
    <div ref={top}>
      <h1>{t("page-catalogue-title")}</h1>
      <p class="hint">
        {base.version === 0 ? t("page-catalogue-from-file") : t("page-catalogue-version", { version: base.version })}
      </p>
      {step.kind === "applied" ? (
        <Notice kind="done">
          {step.already
            ? t("page-catalogue-already", { version: step.version })
            : t("page-catalogue-applied", { version: step.version })}
        </Notice>
      ) : null}
      {said}
      {draft.games.map((game, g) => (
        <section class="section" key={g}>
          <h2>{game.name}</h2>
          <div class="card">
            {game.products.map((product, p) => (
              <ProductEditor
                key={product.code}
                product={product}
                path={`games[${g}].products[${p}]`}
                issues={issues}
                tiers={base.tiers}
                providers={base.providers}
                resting={base.resting?.includes(product.code.toUpperCase()) === true}
                change={(update) => change(g, p, update)}
              />
            ))}
          </div>
        </section>
      ))}
      {dirty ? null : <p class="hint">{t("page-catalogue-how")}</p>}
    </div>
  );
}

/** What the page says about the last save, with its problems or conflicts one by one. */
function SaidNotice(props: { said: Said }) {
  const { said } = props;
  return (
    <Notice kind={said.kind}>
      {said.text}
      {said.lines === undefined || said.lines.length === 0 ? null : (
        <ul class="notice-lines" data-testid="catalogue-notice-lines">
          {said.lines.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ul>
      )}
    </Notice>
  );
}

/** The changes a save would make, as a diff, each price that needs a second look with why. */
function Review(props: { changes: CatalogChange[]; warnings: CatalogWarning[]; said: ComponentChildren }) {
  const { words } = useApp();
  const { t } = words;
  const looks = props.changes.filter((c) => warningsOf(props.warnings, c).length > 0).length;
  return (
    <>
      <h1>{t("page-catalogue-review-title")}</h1>
      {props.said}
      {looks === 0 ? null : <Notice kind="warning">{t("page-catalogue-warnings", { count: looks })}</Notice>}
      {props.changes.length === 0 ? (
        <p class="state empty">{t("page-catalogue-no-changes")}</p>
      ) : (
        <ul class="diff" data-testid="catalogue-diff">
          {props.changes.map((c, i) => {
            const warnings = warningsOf(props.warnings, c);
            const testid = c.kind !== "price" ? "" : c.tier === undefined ? c.code : `${c.code}-${c.tier}`;
            return (
              <li key={i} class={`diff-${c.kind} ${warnings.length === 0 ? "" : "needs-look"}`}>
                {changeText(words, c)}
                {warnings.map((w, j) => (
                  <span key={j} class="diff-warning" data-testid={`warning-${testid}`}>
                    {warningText(words, w)}
                  </span>
                ))}
              </li>
            );
          })}
        </ul>
      )}
      <p class="hint">{t("page-catalogue-confirm-hint")}</p>
    </>
  );
}

/** One product's name, offered switch, price and tier prices, each with the problem found at it. */
function ProductEditor(props: {
  product: CatalogProduct;
  /** Where the product is in the catalogue file, as the bot names its problems. */
  path: string;
  issues: Record<string, string>;
  tiers: string[];
  /** The configured providers: the routes are edited only when there are several. */
  providers: string[];
  /** Every route of it rests now: temporarily unavailable (said, nothing to edit). */
  resting: boolean;
  change: (update: (product: CatalogProduct) => CatalogProduct) => void;
}) {
  const { t } = useApp().words;
  const { product, path, issues, change } = props;
  const issue = (field: string) => issues[`${path}.${field}`];
  const shownAs = product.disabled === true ? t("page-catalogue-hidden") : t("page-catalogue-offered");
  return (
    <div class={`product ${product.disabled === true ? "hidden" : ""}`} data-testid={`product-${product.code}`}>
      <div class="product-head">
        <code>{product.code}</code>
        <input
          class={`product-name ${issue("name") === undefined ? "" : "invalid"}`}
          type="text"
          aria-label={t("page-catalogue-name")}
          value={product.name}
          maxLength={80}
          onInput={(e) => {
            const name = e.currentTarget.value;
            change((pr) => ({ ...pr, name }));
          }}
        />
        <label class="switch" title={shownAs}>
          <input
            type="checkbox"
            checked={product.disabled !== true}
            onChange={(e) => {
              const offered = e.currentTarget.checked;
              change(({ disabled: _d, ...rest }) => (offered ? rest : { ...rest, disabled: true }));
            }}
            data-testid={`offered-${product.code}`}
          />
          <span>{shownAs}</span>
        </label>
      </div>
      {props.resting ? (
        <span class="hint product-resting" data-testid={`resting-${product.code}`}>
          {t("page-product-resting")}
        </span>
      ) : null}
      {issue("name") === undefined ? null : (
        <span class="field-error" role="alert">
          {issue("name")}
        </span>
      )}
      <div class="prices">
        <PriceInput
          label={t("page-catalogue-price")}
          error={issue("price") ?? issues[path]}
          value={product.price}
          onPrice={(price) =>
            change(({ price: _p, ...rest }) => (price === undefined ? rest : { ...rest, price: price as number }))
          }
          testid={`price-${product.code}`}
        />
        {props.tiers.map((tier) => (
          <PriceInput
            key={tier}
            label={t("page-catalogue-tier-price", { tier })}
            error={issue(`prices.${tier}`) ?? issue("prices")}
            value={product.prices?.[tier]}
            onPrice={(price) =>
              change((pr) => {
                const prices = { ...(pr.prices ?? {}) };
                if (price === undefined) delete prices[tier];
                else prices[tier] = price as number;
                const { prices: _old, ...rest } = pr;
                return Object.keys(prices).length === 0 ? rest : { ...rest, prices };
              })
            }
            testid={`price-${product.code}-${tier}`}
          />
        ))}
      </div>
      {props.providers.length > 1 ? (
        <RoutesEditor product={product} providers={props.providers} path={path} issues={issues} change={change} />
      ) : null}
    </div>
  );
}
