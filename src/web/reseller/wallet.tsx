import { useState } from "preact/hooks";
import { MovementRow, Pager } from "../resellers/resellers.js";
import { TopUpSection } from "./top-up.js";
import { Empty, Loaded, Section, useApp, useLoad } from "../ui.js";

/** A reseller's money: saldo and what is held for orders in doubt, and their statement. */
export function WalletPage() {
  const { api, words } = useApp();
  const { t, rp } = words;
  const [wallet, reloadWallet] = useLoad(() => api.wallet(), []);
  const [page, setPage] = useState(0);
  const [statement, reload] = useLoad(() => api.statement(page), [page]);
  return (
    <>
      <h1>{t("page-wallet-title")}</h1>
      <Loaded load={wallet} retry={reloadWallet}>
        {(w) => (
          <div class="tiles">
            <div class="tile">
              <span class="tile-label">{t("page-saldo")}</span>
              <span class="tile-value" data-testid="wallet-saldo">
                {rp(w.saldo)}
              </span>
              <span class="tile-hint">{t("page-resellers-tier", { tier: w.tier })}</span>
            </div>
            <div class="tile">
              <span class="tile-label">{t("page-held-label")}</span>
              <span class="tile-value" data-testid="wallet-held">
                {rp(w.held)}
              </span>
              <span class="tile-hint">{t("page-held-hint")}</span>
            </div>
          </div>
        )}
      </Loaded>
      <TopUpSection onChange={reloadWallet} />
      <Loaded load={statement} retry={reload}>
        {(s) => (
          <>
            <Section title={t("page-statement-title")}>
              {s.movements.length === 0 ? (
                <Empty text={t("page-statement-empty")} />
              ) : (
                s.movements.map((m, i) => <MovementRow key={`${m.ref}-${m.kind}-${i}`} m={m} words={words} />)
              )}
            </Section>
            <Pager page={page} hasMore={(page + 1) * s.pageSize < s.total} setPage={setPage} words={words} />
          </>
        )}
      </Loaded>
    </>
  );
}
