import type { OrderView } from "../server/mini-app/views.js";
import type { Words } from "./i18n.js";
import { ReceiptButton } from "./order/receipt.js";

/**
 * One order as a card: what, for whom, how it ended; for an admin also who ordered and the provider's
 * side (which provider has it, and which refused it before, each with the ref id it knows it by).
 */
export function OrderCard(props: { order: OrderView; words: Words; children?: preact.ComponentChildren }) {
  const { order: o, words } = props;
  const { t, rp, time } = words;
  return (
    <article class={`order state-${o.state}`} data-testid={`order-${o.refId}`}>
      <header>
        <span class="order-state">
          <span class="dot" aria-hidden="true" /> {t(`page-state-${o.state}`)}
        </span>
        <span class="order-time">
          {o.viaApi === true ? <span class="order-api">{t("page-order-api")} · </span> : null}
          {time(o.submittedAt ?? o.createdAt)}
        </span>
      </header>
      <p class="order-product">
        <b>{o.productCode}</b> · {o.productName}
        {o.price === null ? null : <span class="order-price">{rp(o.price)}</span>}
      </p>
      <p class="order-player">
        {t("page-order-player", { player: o.playerId })}
        {o.playerName === undefined ? null : <> · {o.playerName}</>}
      </p>
      {o.state !== "success" ? null : (
        <p class="order-sn">
          {t("page-order-sn")} <code>{o.sn ?? "–"}</code>
        </p>
      )}
      {o.returned === undefined ? null : (
        <p class="order-returned">{t("page-order-returned", { price: rp(o.returned) })}</p>
      )}
      {o.errorMessage !== undefined || o.errorCode !== undefined ? (
        <p class="order-error">{[o.errorCode, o.errorMessage].filter(Boolean).join(": ")}</p>
      ) : o.reason !== undefined ? (
        <p class="order-error">{t(`page-reason-${o.reason}`)}</p>
      ) : null}
      {o.userId === undefined ? null : (
        <p class="order-user">
          {t("page-order-by", { user: o.userName ?? "", id: String(o.userId) })}
          {o.providerPrice === undefined ? null : <> · {t("page-order-cost", { cost: rp(o.providerPrice) })}</>}
        </p>
      )}
      <p class="order-ref">
        <code>{o.refId}</code>
        {o.trxId === undefined ? null : <> · {o.trxId}</>}
        {o.partnerRef === undefined ? null : (
          <span data-testid={`partner-ref-${o.refId}`}>
            {" "}
            · {t("page-order-partner-ref")} <code>{o.partnerRef}</code>
          </span>
        )}
      </p>
      {o.provider === undefined ? null : (
        <p class="order-provider" data-testid={`provider-${o.refId}`}>
          {t("page-order-provider", { provider: o.provider.name })} <code>{o.provider.refId}</code>
          {(o.refusedBy ?? []).map((r) => (
            <span key={r.refId}>
              {" · "}
              {t("page-order-refused", { provider: r.provider, code: r.errorCode ?? "–" })} <code>{r.refId}</code>
            </span>
          ))}
        </p>
      )}
      {o.state === "success" ? <ReceiptButton refId={o.refId} /> : null}
      {props.children}
    </article>
  );
}
