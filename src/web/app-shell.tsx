import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";
import { CataloguePage } from "./catalogue/catalogue.js";
import { OrderPage } from "./order/order.js";
import { OrdersPage } from "./orders/orders.js";
import { PendingPage } from "./pending/pending.js";
import { MyOrdersPage } from "./reseller/my-orders.js";
import { PricesPage } from "./reseller/prices.js";
import { WalletPage } from "./reseller/wallet.js";
import { ResellersPage } from "./resellers/resellers.js";
import { TodayPage } from "./today/today.js";
import { Icon } from "./icons.js";
import { useApp } from "./ui.js";

interface Tab {
  id: string;
  /** The locale key of its label. */
  label: string;
  /** icons.tsx */
  icon: string;
  page: ComponentType;
}

const ADMIN_TABS: Tab[] = [
  { id: "today", label: "page-tab-today", icon: "today", page: TodayPage },
  { id: "catalogue", label: "page-tab-catalogue", icon: "catalogue", page: CataloguePage },
  { id: "pending", label: "page-tab-pending", icon: "pending", page: PendingPage },
  { id: "resellers", label: "page-tab-resellers", icon: "resellers", page: ResellersPage },
  { id: "orders", label: "page-tab-orders", icon: "orders", page: OrdersPage },
  { id: "order", label: "page-tab-order", icon: "order", page: OrderPage },
];

const RESELLER_TABS: Tab[] = [
  { id: "wallet", label: "page-tab-wallet", icon: "wallet", page: WalletPage },
  { id: "order", label: "page-tab-order", icon: "order", page: OrderPage },
  { id: "my-orders", label: "page-tab-my-orders", icon: "orders", page: MyOrdersPage },
  { id: "prices", label: "page-tab-prices", icon: "catalogue", page: PricesPage },
];

/**
 * The page around the screens: the tabs of the role (admins: Today, Catalogue, Pending,
 * Resellers, Orders, Order; resellers: Saldo, Order, Orders, Prices) at the bottom, and outside Telegram the
 * back and main buttons that Telegram draws itself inside it.
 */
export function AppShell() {
  const { session, words, buttons } = useApp();
  const tabs = session.role === "admin" ? ADMIN_TABS : RESELLER_TABS;
  const first = tabs.find((t) => `#${t.id}` === window.location.hash.split("&")[0]) ?? tabs[0]!;
  const [current, setCurrent] = useState(first.id);
  const [, redraw] = useState(0);
  useEffect(() => buttons.subscribe(() => redraw((n) => n + 1)), []);
  const tab = tabs.find((t) => t.id === current) ?? tabs[0]!;
  const Page = tab.page;
  const main = buttons.main;
  return (
    <div class="shell" data-role={session.role}>
      <header class="top">
        {!buttons.inTelegram && buttons.back !== undefined ? (
          <button type="button" class="back" onClick={buttons.back} data-testid="back">
            ‹ {words.t("page-back")}
          </button>
        ) : (
          <span class="shop">{session.shopName}</span>
        )}
      </header>
      <main class="screen" key={tab.id}>
        <Page />
      </main>
      {!buttons.inTelegram && main !== undefined ? (
        <div class="main-action">
          <button
            type="button"
            class="primary"
            disabled={main.disabled === true || main.busy === true}
            aria-busy={main.busy === true}
            onClick={main.onClick}
            data-testid="main-action"
          >
            {main.busy === true ? words.t("page-working") : main.text}
          </button>
        </div>
      ) : null}
      <nav class="tabs" aria-label={words.t("page-tabs")}>
        {tabs.map((t) => (
          <button
            type="button"
            key={t.id}
            class={t.id === tab.id ? "tab active" : "tab"}
            aria-current={t.id === tab.id ? "page" : undefined}
            onClick={() => setCurrent(t.id)}
            data-testid={`tab-${t.id}`}
          >
            <span class="tab-icon">
              <Icon name={t.icon} />
            </span>
            <span class="tab-label">{words.t(t.label)}</span>
          </button>
        ))}
      </nav>
    </div>
  );
}
