# Texts are HTML (Telegram parse_mode HTML); variables are escaped by the bot before they get here.

## Commands (shown in the Telegram menu)
command-start = Start and see what you can do
command-order = Order a top-up
command-cancel = Stop the current order
command-help = Help

## Start and help
start-greeting = Hi { $name }! I top up game items for this shop: choose a product, send the player id, confirm, and you get the serial number right here.
help-heading = What you can do:
help-order = /order: order a top-up step by step
help-order-line = /order CODE PLAYER_ID: order in one line, e.g. <code>/order { $exampleCode } { $examplePlayer }</code>
help-cancel = /cancel: stop the current order
help-pricelist = /pricelist: the products and your prices
help-balance = /balance: the shop's balance after the last sale (in a private chat)
help-saldo-own = /saldo: your saldo and its last movements (in a private chat)
help-history = /history: your orders
help-status = /status REF_ID: where one order stands
help-language = /language: English or Bahasa Indonesia
help-help = /help: how ordering works
help-admin-heading = <b>Admin</b>
help-report = /report [yesterday|YYYY-MM-DD]: a day's sales (◀ ▶ for the days around it), CSV
help-insights = /top [today|week|month]: the best-selling products and resellers · /compare: this month against last month · /hours: when in the day orders come
help-export = /export [YYYY-MM]: this month's orders (or that month's) as a CSV file, with a button for Excel; /export xlsx [YYYY-MM]: the Excel workbook at once
help-pending = /pending: orders with an unknown result, /settle
help-users = /users, /allow ID [reseller], /deny ID: who may order
help-resellers = /deposit ID AMOUNT, /saldo ID|all, /tier ID NAME: resellers
help-prices = /price CODE AMOUNT [TIER], /disable CODE, /enable CODE: prices
help-catalog = /catalog: the catalogue as a file, to edit and send back
help-pause = /pause [REASON], /resume: the shop
help-broadcast = /broadcast TEXT: a message to every user
help =
    <b>How to order</b>
    1. Send /order and choose a game and a product (or type its code).
    2. Send the player id.
    3. Check the summary and tap <b>Confirm</b>. Nothing is ordered before that, and one order is sent only once, even if you tap twice.
    You get the player name, the serial number (SN) and the transaction id, and a Receipt button for the customer.
help-products = Products: { $codes }

## Access
access-refused = Sorry, you may not order with this bot. Your Telegram user id is <code>{ $userId }</code>: send it to the shop's admin to get access.
access-refused-alert = You may not order with this bot. Your Telegram user id is { $userId }: send it to the shop's admin.

## Choosing a product
order-choose-game = Choose a game, or type a product code:
order-choose-product = <b>{ $game }</b>: choose a product, or type its code:
order-button-back = « All games
order-unknown-code = There is no product with the code <b>{ $code }</b>. Tap a button or type a code from the list.
order-expect-choice = Tap a button above or type a product code. /cancel stops the order.
order-menu-closed = This menu is closed. Send /order to start a new order.
order-chosen = Product: <b>{ $code }</b> · { $product }

## Player id
order-ask-player =
    <b>{ $code }</b> · { $product } ({ $game })
    Send the player id, for example <code>{ $example }</code>
order-ask-player-any =
    <b>{ $code }</b> · { $product } ({ $game })
    Send the player id (no spaces).
order-bad-player = <code>{ $input }</code> is not a valid player id for { $game }. It should look like <code>{ $example }</code>. Please send it again:
order-bad-player-any = <code>{ $input }</code> is not a valid player id: use 1 to 64 characters without spaces. Please send it again:
order-expect-text = Please send the player id as text. /cancel stops the order.
order-tap-not-now = Please send the player id as a message.

## Summary
order-summary =
    <b>Please check your order</b>
    Product: <b>{ $code }</b> · { $product } ({ $game })
    Player id: <code>{ $playerId }</code>
    Price: { $price }
    Order ref: <code>{ $refId }</code>
order-summary-hint = Tap <b>Confirm</b> to order. Nothing is ordered before that.
order-summary-reseller =
    <b>Please check your order</b>
    Product: <b>{ $code }</b> · { $product } ({ $game })
    Player id: <code>{ $playerId }</code>
    Your price: <b>{ $price }</b>
    Order ref: <code>{ $refId }</code>
order-summary-saldo = Your saldo: { $saldo } → after this order { $after }
order-summary-saldo-short = Your saldo: { $saldo }
order-summary-hint-short = ⚠️ Your saldo is less than { $price }: top up first (/deposit in the private chat, or ask the shop's admin), then tap <b>Confirm</b>. Nothing is ordered before that.
order-price-none = not set
button-confirm = ✅ Confirm
button-cancel = ✖ Cancel
order-open-draft = Tap <b>Confirm</b> or <b>Cancel</b> on the summary above, or send /order to start again.

## Confirm
callback-processing = Processing your order…
summary-processing = ⏳ Processing… please wait, do not order again.
summary-success = ✅ Done: the result is below.
summary-success-sn = ✅ Done: SN <code>{ $sn }</code>. The result is below.
summary-failed = ❌ Failed: the result is below.
summary-unknown = ⚠️ Result unknown (pending): see below.
summary-cancelled = ✖ Cancelled. Nothing was ordered.
order-success = ✅ <b>Top-up successful</b>
order-success-settled = ✅ <b>Top-up successful</b> (checked by an admin with the provider)
line-product = Product: <b>{ $code }</b> · { $product }
line-player = Player: <b>{ $playerName }</b> (<code>{ $playerId }</code>)
line-player-id = Player id: <code>{ $playerId }</code>
line-sn = SN: <code>{ $sn }</code>
line-balance = Balance left: { $balance }
line-trx = Trx id: <code>{ $trxId }</code>
line-ref = Ref id: <code>{ $refId }</code>
line-partner-ref = Partner's ref_id: <code>{ $partnerRef }</code>
line-provider = Provider: <b>{ $provider }</b> · ref <code>{ $refId }</code>
line-provider-refused = Refused by { $provider } · ref <code>{ $refId }</code>: { $errorCode }
provider-not-sent = not sent
line-saldo = Saldo left: { $saldo }
line-saldo-released = The price ({ $price }) is back in your saldo: { $saldo }
line-saldo-held = { $price } stays held from your saldo until the result is known.
line-error-code = Error code: <code>{ $errorCode }</code>
line-error-msg = Message: { $errorMsg }
line-reason = Reason: { $reason }
order-order-again = You can order again with /order.
order-try-again = You can try again with /order.
order-failed = ❌ <b>Order failed</b>: the provider refused it.
order-failed-no-message = (none)
order-failed-reseller = ❌ <b>Order failed</b>: nothing was topped up.
line-price-returned = The price ({ $price }) is back in your saldo.
order-not-sent = ❌ <b>Order not sent</b>: the provider could not be reached, so nothing was ordered.
order-unknown =
    ⚠️ <b>Result unknown (pending)</b>: { $reason }.
    The order may or may not have gone through. It will <b>not</b> be sent again by itself; an admin will check it with the provider.
reason-timeout = the provider did not answer in time
reason-connection-lost = the connection broke after the order was sent
reason-not-json = the provider's answer could not be read
reason-malformed = the provider's answer was incomplete
reason-status-not-sukses = the provider reported the status "{ $status }"
reason-ref-id-already-exists = the provider already has an order with this ref id
reason-interrupted = the bot was restarted while the order was being sent
reason-server-error = the provider's server reported an error while handling the order
reason-upstream-unknown = the provider does not know the result yet
order-already-heading = This order was already placed; here is its result:
order-in-progress = ⏳ Order <code>{ $refId }</code> is already being processed. Its result will be sent here.
callback-in-progress = This order is already being processed.
callback-already-success = Already ordered: success, SN { $sn }.
callback-already-success-no-sn = Already ordered: success.
callback-already-failed = Already ordered: it failed ({ $errorCode }).
callback-already-failed-returned = Already ordered: it failed, and its price ({ $price }) is back in your saldo.
callback-already-unknown = Already ordered: the result is unknown (pending).
callback-cancelled = This order was cancelled. Send /order to start again.
callback-saldo-short = Not enough saldo: you have { $saldo }, this order costs { $price }. Nothing was ordered.
order-saldo-short = ⚠️ Not enough saldo: you have <b>{ $saldo }</b>, this order costs <b>{ $price }</b>. Nothing was ordered. Ask the shop's admin for a deposit, then tap <b>Confirm</b> again.
order-saldo-short-deposit = ⚠️ Not enough saldo: you have <b>{ $saldo }</b>, this order costs <b>{ $price }</b>. Nothing was ordered. Top up in the private chat with <code>/deposit { $amount }</code>, then tap <b>Confirm</b> again.
callback-expired = This order has expired. Send /order to start again.
callback-not-yours = This button belongs to someone else's order.
callback-invalid = This button is no longer valid.

## Cancel
order-cancelled = ✖ Cancelled. Nothing was ordered.
order-cancel-too-late = Too late to cancel: the order was already sent.
cancel-nothing = There is nothing to cancel.

## Everything else
fallback = Send /order to order a top-up, or /help for help.
unknown-command = I don't know that command. /help lists what I can do.
error-generic = Sorry, something went wrong on our side. Please try again.
error-unavailable = The bot is temporarily unavailable. Please try again in a moment.

## Command menu, continued
command-balance = Partner balance after the last sale
command-history = Your orders
command-language = Language / Bahasa
command-report = Sales report of a day
command-top = Best sellers of a day, week or month
command-compare = This month against last month
command-hours = When in the day orders come
command-export = This month's orders as a CSV file
command-pending = Orders with an unknown result
command-users = Who may order
command-allow = Allow a user to order
command-deny = Take ordering rights away
command-settle = Settle an order with an unknown result
command-saldo = Your saldo (resellers) / a reseller's saldo
command-deposit = Credit a reseller's deposit (admins) / ask for a deposit (resellers)
command-tier = A reseller's price tier
## Outcomes (short)
outcome-success = ✅ success
outcome-failed = ❌ failed
outcome-unknown = ⚠️ unknown (pending)
outcome-submitting = ⏳ processing
outcome-cancelled = ✖ cancelled
value-none = –

## Notices to admins
notice-heading-success = 🧾 <b>Sale</b> by { $user } (<code>{ $userId }</code>)
notice-heading-failed = ❌ <b>Failed order</b> by { $user } (<code>{ $userId }</code>)
notice-heading-unknown = ⚠️ <b>Order with unknown result</b> by { $user } (<code>{ $userId }</code>)
notice-order =
    Product: <b>{ $code }</b> · { $product }
    Player: { $playerName } (<code>{ $playerId }</code>)
    Price: { $price }
    Outcome: { $outcome }
    SN: <code>{ $sn }</code>
    Balance after: { $balance }
    Ref id: <code>{ $refId }</code>
notice-settled = Settled by admin { $adminName }<code>{ $adminId }</code>.
notice-reseller = Reseller (tier { $tier }), paid from saldo: { $price }
notice-reseller-margin = Reseller (tier { $tier }) paid { $price } · provider price { $cost } · margin { $margin }
notice-reseller-held = Reseller (tier { $tier }): { $price } stays held from their saldo until the result is known.
notice-reseller-released = Reseller (tier { $tier }): { $price } was held and is back in their saldo (nothing paid).
notice-not-sent = Not sent to the provider (nothing was charged).
provider-empty-alert = 🚨 <b>The shop's deposit with the provider is empty</b>: order <code>{ $refId }</code> was refused with <code>{ $errorCode }</code> ({ $errorMsg }). Every order fails until it is topped up; /pause tells users meanwhile.
provider-resting-alert = 💤 <b>Provider { $provider } is resting</b>: three orders in a row got no known answer from it. Orders go to the next provider of each product until { $until }; then one order tries it again. No action needed.
provider-resting-empty-alert = 💤 <b>Provider { $provider } is resting</b>: it said the shop's deposit with it is empty. Orders go to the next provider of each product until { $until }; then one order tries it again. Top up the deposit there.
provider-back-alert = ✅ <b>Provider { $provider } answers again</b>: orders go to it as before.
sandbox-note = 🧪 <i>Sandbox: a trial with the built-in test provider. Nothing was topped up and no money moved.</i>
deposit-credited =
    💰 <b>Deposit credited</b>: { $amount }
    Your saldo: <b>{ $saldo }</b>
    Ref: <code>{ $id }</code>
deposit-corrected =
    💰 <b>Saldo corrected</b>: − { $amount }
    Your saldo: <b>{ $saldo }</b>
    Ref: <code>{ $id }</code>
deposit-note = Note: { $note }
low-balance-alert = ⚠️ <b>Low balance</b>: { $balance } after order <code>{ $refId }</code>, below the threshold of { $threshold }. Top up the partner balance.
alert-at-provider =
    { $alert }
    Provider: <b>{ $provider }</b>

## /balance
balance-none = No sale yet: the balance is known after the first successful order.
balance-known =
    Partner balance: <b>{ $balance }</b>
    Seen at { $time }, after order <code>{ $refId }</code>.
balance-providers-title = <b>Partner balances</b> (each provider's, after its last sale):
balance-provider = • { $provider }: <b>{ $balance }</b>, seen at { $time } after order <code>{ $refId }</code>
balance-provider-none = • { $provider }: no sale yet

## /history
history-title = <b>{ $scope }</b>: page { $page } of { $pages } ({ $total ->
        [one] 1 order
       *[other] { $total } orders
    })
history-scope-mine = Your orders
history-scope-all = All orders
history-empty = No orders yet.
history-line =
    { $time } · <code>{ $refId }</code>
    { $code } · { $product } → <code>{ $playerId }</code>
    { $outcome }
history-line-sn = SN <code>{ $sn }</code>
history-line-partner-ref = partner ref_id <code>{ $partnerRef }</code>
history-line-user = by { $user }
history-line-provider = via { $provider }
history-line-refused = refused by { $providers }
history-newer = « Newer
history-older = Older »

## /report
admin-only = This command is for admins.
report-usage = Use /report for today, <code>/report yesterday</code> (or <code>kemarin</code>), or /report YYYY-MM-DD, e.g. <code>/report 2026-11-23</code>.
report-title = <b>Sales report { $date }</b> ({ $tz })
report-empty = No orders on { $date }.
report-counts = Orders: { $total } (✅ { $success } · ❌ { $failed } · ⚠️ { $unknown } · ⏳ { $submitting })
report-totals =
    Selling price: { $selling }
    Provider price: { $provider }
    Margin: { $margin }
report-by-product = <b>By product</b> (successful sales)
report-by-user = <b>By user</b> (successful sales)
report-by-provider = <b>By provider</b> (orders with an outcome there; its sales' cost and margin)
report-provider-line = { $name }: { $count ->
        [one] 1 order
       *[other] { $count } orders
    } · sold { $selling } − cost { $provider } = { $margin }
report-provider-line-unpriced = { $name }: { $count ->
        [one] 1 order
       *[other] { $count } orders
    } · sold { $selling } − cost { $provider } = { $margin } (and { $unpriced } sold at an unknown provider price, left out)
report-line = { $name }: { $count } × · { $selling } − { $provider } = { $margin }
report-line-unpriced = { $name }: { $count } × · { $selling } − { $provider } = { $margin } (and { $unpriced } sold at an unknown provider price, left out)
report-line-all-unpriced = { $name }: { $count } × · { $unpriced } sold at an unknown provider price (no margin counted)
report-loss = { $line } 🔻 <b>loss</b>: sold below the provider price
report-unpriced = ⚠️ { $count ->
        [one] One sale
       *[other] { $count } sales
    } ({ $selling }) { $count ->
        [one] has
       *[other] have
    } no known provider price (settled without one): left out of the margin.
report-api = 🔌 Through the H2H API: { $sold } sold, { $revenue }{ $failed ->
    [0] {""}
   *[other] {" "}({ $failed } failed)
}
report-by-reseller = <b>Resellers</b> (sales at their price, profit, deposits)
report-reseller-line = { $name }, tier { $tier }: { $count } × · sales { $sales } · profit { $profit } · deposits { $deposits }
report-csv-button = 📄 CSV of { $date }
report-csv-caption = Orders of { $date }: { $count }
report-day-before = ◀ { $date }
report-day-after = { $date } ▶


## /top, /hours and /compare: the owner's questions
top-usage = Use /top for this month, or <code>/top today</code>, <code>/top week</code>, <code>/top month</code> (also <code>hari ini</code>, <code>minggu</code>, <code>bulan</code>).
top-title-day = <b>Top sellers of { $date }</b>
top-title-week = <b>Top sellers of the week { $from } – { $to }</b>
top-title-month = <b>Top sellers of { $month }</b>
top-totals = { $count ->
    [one] 1 sale
   *[other] { $count } sales
} · revenue { $selling } · margin { $margin }
top-unpriced = The margin leaves out { $count ->
    [one] 1 sale
   *[other] { $count } sales
} at an unknown provider price ({ $selling }).
top-none = No sales in this period.
top-products = <b>Products</b> (by revenue)
top-product-line = { $rank }. { $name }: { $count } × · { $selling } · margin { $margin }
top-resellers = <b>Resellers</b> (by sales at their price)
top-reseller-line = { $rank }. { $name }{ $userId }: { $count } × · { $sales } · profit { $profit }
top-no-resellers = No reseller sales in this period.
top-button-day = Day
top-button-week = Week
top-button-month = Month
top-button-before = ◀ Before
top-button-after = After ▶
compare-title = <b>{ $month } so far against { $before }</b> (days 1 to { $days } of each)
compare-sales = Sales: { $now } (last month { $before }) { $change }
compare-selling = Revenue: { $now } (last month { $before }) { $change }
compare-margin = Margin: { $now } (last month { $before }) { $change }
compare-up = ▲ { $percent } %
compare-down = ▼ { $percent } %
compare-same = = 0 %
compare-none = (nothing to compare with)
compare-unpriced = Margins leave out sales at an unknown provider price.
hours-usage = Use /hours for this month, or <code>/hours today</code>, <code>/hours week</code>, <code>/hours month</code> (also <code>hari ini</code>, <code>minggu</code>, <code>bulan</code>).
hours-title-day = <b>When orders came on { $date }</b>
hours-title-week = <b>When orders came in the week { $from } – { $to }</b>
hours-title-month = <b>When orders came in { $month }</b>
hours-none = No orders in this period.
hours-totals = { $count ->
    [one] 1 order sent
   *[other] { $count } orders sent
} (shop's time zone)
hours-busiest = <b>Busiest hours</b>
hours-busy-line = { $from }–{ $to }: { $count ->
    [one] 1 order
   *[other] { $count } orders
} · { $provider } at the provider
hours-advice = Keep the provider deposit full before { $hour }.

## /export
export-usage = Use /export for this month, <code>/export last month</code>, or /export YYYY-MM, e.g. <code>/export 2026-03</code>: that month's orders (in the shop's time zone) as a CSV file.
export-empty = No orders in { $month }.
export-too-many = { $month } has { $count } orders: too many for one file. Use /report YYYY-MM-DD and its CSV button for each day.
export-caption = Orders of { $month } ({ $tz }): { $count }
export-caption-gzip = Orders of { $month } ({ $tz }): { $count } (gzip: open it with any unzip tool or a spreadsheet that reads .gz)
export-month-button = 📄 Last month: { $month }

## /pending and settling
pending-none = No orders with an unknown result.
pending-title = <b>Orders with an unknown result</b>: { $count }
pending-line =
    <code>{ $refId }</code> · { $time }
    { $code } · { $product } → <code>{ $playerId }</code>, by { $user }
    Why: { $reason }
pending-help = Check each one in the provider's dashboard, then settle it with its buttons, or with <code>/settle REF_ID success SN</code> or <code>/settle REF_ID failed REASON</code>.
button-settle-success = ✅ Success
button-settle-failed = ❌ Failed
settle-ask-sn = Send the SN of order <code>{ $refId }</code> from the provider's dashboard, or /cancel. If you know what the provider charged, add it after the SN (<code>SN 19350</code>): it counts for the margin; without it, the last price seen for the product counts.
settle-ask-reason = Send the reason order <code>{ $refId }</code> failed, or /cancel.
settle-bad-sn = An SN is 1 to 64 characters without spaces. Send it again, or /cancel.
settle-bad-reason = Send the reason as text (up to 200 characters), or /cancel.
settle-bad-cost = The provider price after the SN must be whole rupiah, at most 100,000,000 (for example <code>SN123 19350</code>). Send it again, or /cancel.
settle-cost-last-seen = Its cost for the margin: { $cost }, the provider price last seen for the product before it was sent.
settle-cost-given = Its cost for the margin: { $cost }, as you gave it.
settle-cost-unknown = Its provider price is not known (none was ever seen for this product), so its margin is left out of the report. Next time add it after the SN.
pending-cost = Provider price last seen for it: { $cost } (counts as its cost if you settle it as a success without one).
pending-cost-unknown = No provider price seen for it yet: give one after the SN (<code>/settle REF_ID success SN PRICE</code>), or its margin stays unknown.
pending-cost-answer = Provider price in its answer: { $cost } (counts as its cost if you settle it as a success).
settle-usage = Use <code>/settle REF_ID success SN [PROVIDER_PRICE]</code> or <code>/settle REF_ID failed REASON</code>.
settle-done = Order <code>{ $refId }</code> is settled as { $outcome }.
settle-told-user = The user has been told.
settle-told-callback = It came through the H2H API: the partner's system gets a callback with the outcome (retried until it answers). The user is not messaged.
settle-told-nothing = It came through the H2H API and the partner has no callback URL: they were sent nothing, and see the outcome when they ask its status.
settle-at-provider = Provider: <b>{ $provider }</b>, ref id there <code>{ $attemptRef }</code>
settle-not-found = There is no order <code>{ $refId }</code>.
settle-several = <code>{ $id }</code> names several orders: nothing was settled. Settle each by the shop's ref id:
    { $refIds }
settle-not-pending = Order <code>{ $refId }</code> is not pending (it is { $outcome }); nothing was changed.
order-settled-heading = An admin checked this order with the provider. Final result:
order-failed-settled = ❌ <b>Order failed</b> (checked by an admin with the provider).
order-success-by-provider = ✅ <b>Top-up successful</b> (confirmed by the provider's status)
order-failed-by-provider = ❌ <b>Order failed</b> (the provider's status says so).
order-provider-heading = The provider confirmed this order's result. Final result:
## /allow, /deny, /users
allow-usage = Use <code>/allow USER_ID</code> (staff: they order on the shop's account) or <code>/allow USER_ID reseller</code> (they pay from their own saldo). The user sees their id when they send /start.
deny-usage = Use <code>/deny USER_ID</code>.
allow-done = User { $name }<code>{ $userId }</code> may order now, as staff (on the shop's account).
allow-done-reseller = User { $name }<code>{ $userId }</code> is a reseller now (tier reseller, saldo Rp 0): take a deposit with /deposit.
allow-changed-reseller = User { $name }<code>{ $userId }</code> is a reseller now instead of staff.
allow-changed-staff = User { $name }<code>{ $userId }</code> is staff now instead of a reseller (their saldo stays in the books).
allow-already = User { $name }<code>{ $userId }</code> may already order, in that role.
allow-from-env = User { $name }<code>{ $userId }</code> has another role from the environment (ADMIN_IDS, ALLOWED_USER_IDS or RESELLER_IDS); change it there.
deny-done = User { $name }<code>{ $userId }</code> may no longer order.
deny-not-listed = User { $name }<code>{ $userId }</code> was not allowed in the chat; nothing changed.
deny-is-admin = User { $name }<code>{ $userId }</code> is an admin (ADMIN_IDS) and cannot be denied here.
deny-from-env = User { $name }<code>{ $userId }</code> is allowed by ALLOWED_USER_IDS or RESELLER_IDS; remove them there.
users-title = <b>Who may order</b>
users-line = { $name }<code>{ $userId }</code>: { $role }
users-from-admin-ids = ADMIN_IDS
users-from-allowed-ids = ALLOWED_USER_IDS
users-from-reseller-ids = RESELLER_IDS
users-from-chat = allowed in the chat by <code>{ $addedBy }</code>, { $time }
users-reseller = tier { $tier } · saldo { $saldo }
role-admin = admin
role-staff = staff
role-reseller = reseller

## Amounts typed in the chat (/deposit, /price)
amount-unclear = I can't tell which amount <code>{ $typed }</code> is. Write it like <code>50000</code>, <code>50.000</code>, <code>Rp50.000</code>, <code>50rb</code>, <code>50 ribu</code>, <code>1,5jt</code> or <code>1.5 juta</code>: a dot or comma before three digits groups thousands, and a decimal like <code>1,5</code> needs <code>rb</code> or <code>jt</code> after it.

## Resellers: /saldo, /deposit, /tier
saldo-own =
    💰 <b>Your saldo</b>: { $saldo }
    Held for orders whose result is not known yet: { $held }
saldo-of =
    💰 <b>Saldo of { $name }<code>{ $userId }</code></b>: { $saldo }
    Held for orders whose result is not known yet: { $held }
saldo-movements-title = <b>Last movements</b>
saldo-no-movements = No movements yet.
saldo-movement = { $time } · { $kind } { $amount } · <code>{ $ref }</code> · saldo { $saldo }
statement-deposit = deposit
statement-correction = correction
statement-spent = spent on order
statement-held = held for order (result not known yet)
statement-refund = refund (order failed)
saldo-not-reseller = /saldo is for resellers: they pay from a saldo of their own. /balance shows the shop's balance with the provider.
saldo-usage = Use <code>/saldo USER_ID</code> for one reseller, or <code>/saldo all</code> for every reseller.
saldo-all-title = <b>Resellers' saldo</b>
saldo-all-line = { $name }<code>{ $userId }</code> ({ $tier }): saldo { $saldo } · held { $held }
saldo-all-no-longer = no longer allowed
saldo-all-none = No reseller has a saldo yet.
saldo-all-total = The shop owes resellers <b>{ $total }</b> in all (saldo { $saldo } + held { $held }).
deposit-usage = Use <code>/deposit USER_ID AMOUNT [NOTE]</code>, e.g. <code>/deposit 123456789 50rb transfer BCA</code> (or <code>50000</code>, <code>Rp50.000</code>, <code>1,5jt</code>). A negative amount corrects a mistake: <code>/deposit 123456789 -5rb typo</code>.
deposit-bad-amount = The amount must be whole rupiah, not 0, at most { $max } (e.g. <code>50000</code>, <code>50.000</code>, <code>50rb</code> or <code>-5rb</code>).
deposit-bad-note = The note can be at most 200 characters.
not-reseller-admin = { $name }<code>{ $userId }</code> is an admin: admins order on the shop's account and have no saldo.
not-reseller-staff-env = { $name }<code>{ $userId }</code> is staff (ALLOWED_USER_IDS): staff order on the shop's account and have no saldo. To make them a reseller, move their id from ALLOWED_USER_IDS to RESELLER_IDS and restart the bot.
not-reseller-staff = { $name }<code>{ $userId }</code> is staff: staff order on the shop's account and have no saldo. Make them a reseller with <code>/allow { $userId } reseller</code>.
not-reseller-stranger = { $name }<code>{ $userId }</code> is not a reseller and has no saldo. Make them one with <code>/allow { $userId } reseller</code>.
deposit-below-zero = A saldo never goes below Rp 0: this correction is larger than the saldo ({ $saldo }). Nothing changed.
deposit-summary =
    <b>Deposit</b> for reseller { $name }<code>{ $userId }</code>: <b>{ $amount }</b>
    Saldo now: { $before } → after: <b>{ $after }</b>
    Ref: <code>{ $id }</code>

    Tap <b>Confirm</b> once you have received the money.
correction-summary =
    <b>Correction</b> of reseller { $name }<code>{ $userId }</code>'s saldo: <b>{ $amount }</b>
    Saldo now: { $before } → after: <b>{ $after }</b>
    Ref: <code>{ $id }</code>

    Tap <b>Confirm</b> to apply it.
deposit-done = ✅ Credited to { $name }<code>{ $userId }</code>: { $amount }. Saldo now <b>{ $saldo }</b> (ref <code>{ $id }</code>). A message to the reseller is on its way.
deposit-undelivered-not-started = ⚠️ { $name }<code>{ $userId }</code> could not be told of deposit <code>{ $id }</code>: they have never opened a chat with this bot, and Telegram lets a bot write only to people who did. Ask them to open the bot and send /start: they get the message and their saldo then. The deposit is credited either way.
deposit-undelivered-blocked = ⚠️ { $name }<code>{ $userId }</code> could not be told of deposit <code>{ $id }</code>: they blocked this bot. The deposit is credited; they see it in /saldo once they unblock it.
deposit-done-toast = Credited.
deposit-already = This deposit was already credited.
deposit-cancelled = ✖ Cancelled: nothing was credited.
deposit-expired = This deposit has expired. Send /deposit again.
deposit-hand-summary = This credits deposit request <code>{ $id }</code> by hand: Confirm decides it as <b>credited by hand</b>, and its Approve stops working.
deposit-hand-unknown = There is no deposit request <code>{ $id }</code>: check the id. Nothing was credited.
deposit-hand-not-theirs = Deposit request <code>{ $id }</code> is not this reseller's: it belongs to { $name }<code>{ $owner }</code>. Nothing was credited.
deposit-hand-already-approved = Deposit request <code>{ $id }</code> was already credited ({ $amount }) on { $when } by { $name }<code>{ $by }</code> (Approve). Nothing was credited again.
deposit-hand-already-by-hand = Deposit request <code>{ $id }</code> was already credited by hand ({ $amount }, deposit <code>{ $deposit }</code>) on { $when } by { $name }<code>{ $by }</code>. Nothing was credited again.
tier-usage = Use <code>/tier USER_ID NAME</code>. Tiers in the catalogue: { $tiers }.
tier-unknown = There is no tier <b>{ $tier }</b> in the catalogue's prices. Tiers: { $tiers }.
tier-set = Reseller { $name }<code>{ $userId }</code>: tier { $old } → <b>{ $tier }</b>. New summaries use its prices.
tier-traps-title = ⚠️ Tier <b>{ $tier }</b> has no price of its own for { $count } { $count ->
        [one] product
       *[other] products
    }, so it pays the selling price there: more than tier { $base } pays.
tier-trap-line = <code>{ $code }</code> { $product }: pays { $pays } (tier reseller: { $base })
tier-traps-more = … and { $count } more.
tier-traps-hint = Give the tier its own price with <code>/price CODE AMOUNT { $tier }</code>.

## /language
language-choose = Choose your language:
language-set = Language: English.

## Flood
rate-limited = Too many messages at once. Please wait a few seconds; I will answer again.

## The shop from a phone (catalogue, prices, pause)
command-pricelist = Products and your prices
command-price = Set a product's price
command-disable = Hide a product
command-enable = Offer a hidden product again
command-catalog = The catalogue as a file, to edit
command-pause = Pause all orders
command-resume = Open orders again
price-not-set = not set
pricelist-title = <b>Price list</b>
pricelist-title-tier = <b>Price list</b> (your prices, tier <b>{ $tier }</b>)
pricelist-empty = There is nothing for sale to you right now.
pricelist-disabled = <i>Hidden (/enable CODE offers it again): { $codes }</i>
pricelist-resting = <i>(temporarily unavailable)</i>
order-button-resting = ⏸ temporarily unavailable
price-usage =
    Usage: <code>/price CODE AMOUNT</code> for the selling price, or <code>/price CODE AMOUNT TIER</code> for a reseller tier's price.
    Example: <code>/price ML86 21000</code> or <code>/price ML86 19500 gold</code>. A new tier is made only when asked: <code>/price ML86 19000 platinum new</code>.
price-bad-amount = The amount must be whole rupiah, more than 0 and at most { $max }, e.g. <code>21000</code>, <code>21.000</code>, <code>Rp21.000</code> or <code>21rb</code>.
price-bad-tier = A tier name is 1 to 32 lowercase letters, digits, _ or -, starting with a letter (e.g. <code>gold</code>).
shop-unknown-code = There is no product with the code <b>{ $code }</b>. /pricelist shows the codes.
price-changed = ✏️ <b>{ $code }</b> · { $product }: price { $from } → <b>{ $to }</b>. New summaries use it now; summaries already shown keep their price.
price-same = <b>{ $code }</b> · { $product }: the price is already { $to }. Nothing changed.
price-tier-changed = ✏️ <b>{ $code }</b> · { $product }: price for tier <b>{ $tier }</b> { $from } → <b>{ $to }</b>. New summaries use it now; summaries already shown keep their price.
price-tier-same = <b>{ $code }</b> · { $product }: the price for tier <b>{ $tier }</b> is already { $to }. Nothing changed.
price-unknown-tier = There is no tier <b>{ $tier }</b>. The tiers are: { $tiers }. Nothing changed. To make a new tier, say so: <code>/price { $code } AMOUNT { $tier } new</code>.
price-confirm-title = ⚠️ <b>Check this price</b>: <b>{ $code }</b> · { $product }: { $from } → <b>{ $to }</b>
price-confirm-title-tier = ⚠️ <b>Check this price</b>: <b>{ $code }</b> · { $product }, tier <b>{ $tier }</b>: { $from } → <b>{ $to }</b>
price-warning-below-cost = The provider charged { $provider } for it last time: every sale at this price loses <b>{ $loss }</b>.
price-warning-far = That is { $percent }% away from the price it replaces ({ $from }): a typo?
price-warning-tier-above-retail = Tier <b>{ $tier }</b> would pay { $tierPrice }, more than the selling price { $retail }: its resellers would pay more than a walk-in customer.
price-confirm-new-tier = Tier <b>{ $tier }</b> does not exist yet: Confirm makes it.
price-confirm-hint = Tap <b>Confirm</b> to set it anyway, or <b>Cancel</b>. Nothing changed yet.
price-change-applied = Price set.
price-applied = ✏️ <b>{ $code }</b>: price { $from } → <b>{ $to }</b>, confirmed. New summaries use it now.
price-tier-applied = ✏️ <b>{ $code }</b>: price for tier <b>{ $tier }</b> { $from } → <b>{ $to }</b>, confirmed. New summaries use it now.
price-change-was-applied = This price was already set.
price-change-was-cancelled = Cancelled: the price did not change.
price-change-was-stale = The product is not in the catalogue any more: nothing changed.
price-change-moved = <b>{ $code }</b>: the price changed since this warning: it is now <b>{ $now }</b> (the warning showed { $from } → { $to }). Nothing changed; send /price again to set another.
price-change-moved-tier = <b>{ $code }</b>: the price for tier <b>{ $tier }</b> changed since this warning: it is now <b>{ $now }</b> (the warning showed { $from } → { $to }). Nothing changed; send /price again to set another.
disable-usage = Usage: <code>/disable CODE</code>, e.g. <code>/disable ML86</code>
enable-usage = Usage: <code>/enable CODE</code>, e.g. <code>/enable ML86</code>
disable-done = ⛔ <b>{ $code }</b> · { $product }: offered → <b>hidden</b>. Nobody can order it now; a summary already shown orders nothing at Confirm. /enable { $code } offers it again.
disable-already = <b>{ $code }</b> · { $product } is already hidden. Nothing changed.
enable-done = ✅ <b>{ $code }</b> · { $product }: hidden → <b>offered</b>.
enable-already = <b>{ $code }</b> · { $product } is already offered. Nothing changed.
catalog-source-file = The catalogue in use: from the file (not edited in the chat yet).
catalog-source-chat = The catalogue in use: edited in the chat (version { $version }, { $time } by { $byName }<code>{ $by }</code>).
catalog-how = To change it: edit this file and send it back to me as a document. I check it and show what changes before anything is applied.
catalog-upload-admin-only = Only an admin can change the catalogue with a file. Nothing was changed.
catalog-upload-not-json = <b>{ $name }</b> is not a JSON file. Send the catalogue as a <code>.json</code> document (/catalog gives you the current one).
catalog-upload-too-large = <b>{ $name }</b> is too large ({ $size } KB; at most { $max } KB). Nothing was changed.
catalog-upload-download-failed = I could not fetch the file from Telegram. Please send it again.
catalog-upload-invalid = ❌ <b>{ $name }</b> is not a valid catalogue ({ $count ->
        [one] 1 problem
       *[other] { $count } problems
    }). Nothing was changed. Fix { $count ->
        [one] it
       *[other] these
    } and send it again:
catalog-upload-more-errors = … and { $count } more.
catalog-upload-no-changes = <b>{ $name }</b> is the same as the catalogue in use. Nothing to change.
catalog-diff-title = <b>Check the new catalogue</b> ({ $name }, { $count ->
        [one] 1 change
       *[other] { $count } changes
    }):
catalog-diff-added = ➕ <b>{ $code }</b> · { $product } ({ $game }), price { $price }
catalog-diff-removed = ➖ <b>{ $code }</b> · { $product } ({ $game }) removed
catalog-diff-price = ✏️ <b>{ $code }</b>: price { $from } → { $to }
catalog-diff-price-tier = ✏️ <b>{ $code }</b>: tier { $tier } price { $from } → { $to }
catalog-diff-renamed = 🔤 <b>{ $code }</b>: name "{ $from }" → "{ $to }"
catalog-diff-moved = 🎮 <b>{ $code }</b>: game { $from } → { $to }
catalog-diff-disabled = ⛔ <b>{ $code }</b>: offered → hidden
catalog-diff-enabled = ✅ <b>{ $code }</b>: hidden → offered
catalog-diff-rule = 🆔 { $game }: player id rule changed
catalog-diff-routes = 🔀 <b>{ $code }</b>: routes { $from } → { $to }
catalog-routes-all = every provider, under its code
catalog-diff-more = … and { $count ->
        [one] 1 more change
       *[other] { $count } more changes
    }.
catalog-diff-confirm = Tap <b>Confirm</b> to apply it now (no restart). Summaries already shown keep their prices.
catalog-upload-applied = ✅ The new catalogue is in use.
catalog-upload-applied-alert = The new catalogue is in use.
catalog-upload-cancelled = ✖ Cancelled. The catalogue was not changed.
catalog-upload-was-applied = This catalogue was already applied.
catalog-upload-was-cancelled = This change was cancelled.
catalog-upload-was-stale = The catalogue changed after this file was checked; it was not applied.
catalog-upload-stale-alert = The catalogue changed meanwhile: nothing was applied.
catalog-upload-stale = ⚠️ The catalogue was changed by someone else after this file was checked, so it was not applied (it would undo their change). Send /catalog for the current one, edit it, and send it again.
pause-done = ⏸ <b>Orders are paused.</b> Nobody can start or confirm an order; orders already sent finish normally. Users are told: { $reason }. /resume opens orders again.
pause-changed = ⏸ Orders are still paused; users are told now: { $reason }. /resume opens orders again.
pause-no-reason = (no reason given)
pause-still = ⏸ Orders are paused (since { $time }, by { $byName }<code>{ $by }</code>). Users are told: { $reason }. Nothing changed: <code>/pause REASON</code> tells them another reason, /resume opens orders again.
pause-reason-too-long = The reason is too long: at most 200 characters.
resume-done = ▶️ <b>Orders are open again</b> (paused since { $time } by { $byName }<code>{ $by }</code>).
resume-not-paused = Orders are not paused. Nothing changed.
orders-paused = ⏸ Orders are paused for now. Nothing was ordered. Please try again later.
orders-paused-reason = ⏸ Orders are paused for now: { $reason }. Nothing was ordered. Please try again later.
callback-paused = Orders are paused for now. Nothing was ordered.
callback-paused-reason = Orders are paused: { $reason }. Nothing was ordered.
order-product-gone = ⛔ <b>{ $code }</b> · { $product } is not for sale any more. Nothing was ordered. /order shows what is.
callback-product-resting = { $product } is temporarily unavailable: its providers are not answering. Nothing was charged; try again in a few minutes.
order-product-resting = ⏸️ <b>{ $product }</b> (<code>{ $code }</code>) is temporarily unavailable: its providers are not answering right now. Nothing was sent and nothing was charged. Tap <b>Confirm</b> again in a few minutes.
callback-product-gone = { $code } is not for sale any more. Nothing was ordered.

## broadcast
command-broadcast = Send a message to every user
broadcast-usage =
    Use <code>/broadcast TEXT</code>: the text (several lines are fine) goes to everyone who may order and has started the bot, after a preview with <b>Confirm</b>.
broadcast-too-long = The message has { $length } characters; a broadcast can have at most { $max }. Nothing was sent.
broadcast-nobody = Nobody would receive it: no one who may order has started the bot yet. Nothing was sent.
broadcast-message =
    📢 <b>Announcement</b>

    { $text }
broadcast-preview-title = <b>Broadcast preview</b>: exactly this goes to <b>{ $count ->
        [one] 1</b> user
       *[other] { $count }</b> users
    }, one message each: everyone who may order and has started the bot, admins (you too) included.
broadcast-title = <b>Broadcast</b> to <b>{ $count ->
        [one] 1</b> user
       *[other] { $count }</b> users
    }:
broadcast-title-cancelled = <b>Broadcast</b> (cancelled):
broadcast-preview-confirm = Tap <b>Confirm</b> to send it.
broadcast-status-sending = ⏳ Sending to { $total ->
        [one] 1 user
       *[other] { $total } users
    }…
broadcast-status-progress = ⏳ Sending: { $processed } of { $total } (delivered { $delivered }, blocked { $blocked }, failed { $failed })
broadcast-status-done = ✅ Sent to { $total ->
        [one] 1 user
       *[other] { $total } users
    }: delivered { $delivered }, blocked { $blocked }, failed { $failed }.
broadcast-status-cancelled = ✖ Cancelled: nothing was sent.
broadcast-report = 📢 Broadcast finished: <b>{ $delivered }</b> delivered, { $blocked } blocked the bot, { $failed } failed (of { $total }).
broadcast-report-interrupted = { $interrupted } of the failed were being sent when the bot stopped: they were not sent again, so nobody got it twice.
broadcast-started-toast = Sending…
broadcast-cancelled-toast = Cancelled.
broadcast-already-sending = This broadcast is already being sent: { $processed } of { $total } so far.
broadcast-already-done = This broadcast was already sent: { $delivered } delivered, { $blocked } blocked, { $failed } failed.
broadcast-already-cancelled = This broadcast was cancelled. Send /broadcast again for a new one.
broadcast-expired = This preview has expired. Send /broadcast again.

## receipt and status
command-status = An order's state and result
receipt-button = 🧾 Receipt
copy-sn-button = 📋 Copy SN
receipt-sent = Receipt sent below: forward it to your customer.
receipt-not-success = This order did not succeed ({ $state }): there is no receipt.
receipt-title =
    🧾 <b>{ $shop }</b>
    <b>Top-up receipt</b>
receipt-time = Date: { $time }
receipt-status = Status: ✅ Successful
receipt-game = Game: { $game }
receipt-product = Product: <b>{ $code }</b> · { $product }
receipt-player-id = Player ID: <code>{ $playerId }</code>
receipt-player-name = Player name: <b>{ $playerName }</b>
receipt-sn = SN: <code>{ $sn }</code>
receipt-ref = Ref ID: <code>{ $refId }</code>
receipt-thanks = Thank you for your purchase!
status-usage = Send <code>/status REF_ID</code> with the ref id of one of your orders (it is in the order's summary and result).
status-not-found = No order with that ref id of yours: <code>{ $refId }</code>
status-several = <code>{ $id }</code> names several orders (partners' ref_ids, or a partner's and one of the shop's). Ask for each by the shop's ref id:
    { $refIds }
status-title = 📄 <b>Order status</b>
status-state = State: { $state }
status-state-draft = 📝 not confirmed
status-nothing-ordered = Nothing was ordered.
status-not-sent = It was not sent to the provider: nothing was ordered.
status-game = Game: { $game }
status-created = Created: { $time }
status-submitted = Sent to the provider: { $time }
status-finished = Finished: { $time }
status-settled = Settled by an admin: { $time }
status-settled-by = Settled by admin { $adminName }<code>{ $adminId }</code>: { $time }
status-ordered-by = Ordered by: { $user } (<code>{ $userId }</code>)

## Groups
callback-not-your-menu = This menu belongs to someone else. Send /order to get your own.
private-only = 🔒 /{ $command } is shown only in a private chat with me (the whole group would read it here). Open @{ $bot } and send /{ $command } there.
edit-not-read = I act on messages once: editing one changes nothing. Please send it again as a new message.
edit-not-read-draft = I act on messages once: editing one changes nothing. The summary above still has what you first sent; if it is wrong, tap <b>Cancel</b> and send it again.

## The Mini App (/app, and the page itself: keys starting with page-)
command-app = Open the shop app
help-app = /app: the shop app (sales, catalogue, resellers on one screen)
help-app-reseller = /app: your own pages: saldo, statement, orders and prices
app-button = 🛍 Open the shop app
app-menu-button = Shop
app-open-admin = The shop app: today's sales, the catalogue, pending orders, resellers and orders, on one screen.
app-open-reseller = Your saldo, statement, orders and prices, on one screen.
app-private-only = The shop app opens in a private chat: write to @{ $bot } and send /app there.
app-not-for-you = The shop app is for the shop's admins and resellers.

## The Mini App's page (read by the page itself, plain text: no markup)
page-loading = Loading…
page-working = Working…
page-retry = Try again
page-back = Back
page-cancel = Cancel
page-kept = What you typed is kept.
page-tabs = Sections
page-newer = Newer
page-older = Older
page-error-network = The bot cannot be reached. Check the connection and try again.
page-error-unauthorized = This page was opened without Telegram's sign-in, or too long ago. Close it and open it again from the chat.
page-error-forbidden = This page is for the shop's admins and resellers.
page-error-not-found = That is not there (any more).
page-error-server = Something went wrong on the bot's side. Try again in a moment.
page-denied-title = Not for this account
page-failed-title = The shop app could not open
page-tab-today = Today
page-tab-catalogue = Catalogue
page-tab-pending = Pending
page-tab-resellers = Resellers
page-tab-orders = Orders
page-tab-wallet = Saldo
page-tab-my-orders = Orders
page-tab-prices = Prices
page-state-success = Success
page-state-failed = Failed
page-state-unknown = Unknown
page-state-submitting = Processing
page-state-draft = Not confirmed
page-state-cancelled = Cancelled
page-reason-provider-error = The provider refused it
page-reason-not-sent = Not sent to the provider
page-reason-settled = Settled as failed
page-reason-timeout = The provider did not answer in time
page-reason-connection-lost = The connection broke after the order was sent
page-reason-not-json = The provider's answer could not be read
page-reason-malformed = The provider's answer was incomplete
page-reason-status-not-sukses = The provider did not report success
page-reason-ref-id-already-exists = The provider already has this ref id
page-reason-interrupted = The bot restarted while the order was being sent
page-reason-server-error = The provider's server reported an error
page-reason-upstream-unknown = The provider does not know the result yet
page-order-player = Player { $player }
page-order-sn = SN
page-order-api = API
page-order-returned = Failed: nothing was topped up, and the price ({ $price }) is back in your saldo.
page-order-by = By { $user } ({ $id })
page-order-cost = provider { $cost }
page-order-provider = via { $provider }
page-order-refused = refused by { $provider } ({ $code })
page-order-partner-ref = partner ref_id
page-today-title = Today, { $day }
page-today-sales = Sales
page-today-orders = { $count ->
        [one] 1 order in all
       *[other] { $count } orders in all
    }
page-today-revenue = Revenue
page-today-cost = provider { $cost }
page-today-margin = Margin
page-today-balance = Provider balance
page-today-balance-none = no sale seen yet
page-today-providers = Providers: balance and today
page-today-provider-hint = { $count ->
        [one] 1 order
       *[other] { $count } orders
    } today · cost { $cost } · margin { $margin } · balance seen { $seen }
page-today-provider-hint-none = { $count ->
        [one] 1 order
       *[other] { $count } orders
    } today · cost { $cost } · margin { $margin } · no balance seen yet
page-today-money = Money
page-today-owed = Owed to resellers
page-today-owed-hint = saldo { $saldo } · held { $held }
page-today-deposits = Deposits today
page-today-outcomes = Failed / unknown today
page-today-outcomes-hint = unknown ones wait in Pending
page-today-pending = Waiting to be settled
page-today-days = Last 30 days
page-today-by-product = Today by product
page-today-no-sales = No sales today yet.
page-today-product-hint = { $count } sold · margin { $margin }
page-today-product-hint-unpriced = { $count } sold · margin { $margin } (some at an unknown provider price, left out)
page-today-unpriced = { $count ->
        [one] 1 sale
       *[other] { $count } sales
    } at an unknown provider price left out
page-top-title = Top sellers
page-period-day = Day
page-period-week = Week
page-period-month = Month
page-period-before = Earlier
page-period-after = Later
page-period-week-span = { $from } – { $to }
page-top-totals = { $count ->
        [one] 1 sale
       *[other] { $count } sales
    } · { $selling } · margin { $margin }
page-top-products = Products, by revenue
page-top-resellers = Resellers, by sales at their price
page-top-product-hint = { $count ->
        [one] 1 sold
       *[other] { $count } sold
    } · margin { $margin }
page-top-reseller-hint = { $count ->
        [one] 1 order
       *[other] { $count } orders
    } · profit { $profit }
page-top-none = No sales in this period.
page-top-no-resellers = No reseller sales in this period.
page-top-providers = Providers, by revenue
page-top-provider-hint = { $count ->
        [one] 1 order
       *[other] { $count } orders
    } · cost { $cost } · margin { $margin }
page-compare-title = This month vs last month
page-compare-days = { $month } against { $before }, { $days ->
        [one] day 1 of each
       *[other] days 1 to { $days } of each
    }
page-compare-sales = Sales
page-compare-revenue = Revenue
page-compare-margin = Margin
page-compare-last = last month { $value }
page-compare-up = ▲ { $percent } %
page-compare-down = ▼ { $percent } %
page-compare-same = = 0 %
page-compare-none = nothing to compare with
page-hours-title = Hours
page-hours-busiest = Busiest: { $hours }
page-hours-busy-hour = { $hour }:00 ({ $count ->
        [one] 1 order
       *[other] { $count } orders
    })
page-hours-bar = { $hour }:00: { $count ->
        [one] 1 order
       *[other] { $count } orders
    }, { $selling }
page-hours-none = No orders in this period.
page-chart-margin = Margin
page-chart-sales = Sales
page-chart-balance = Provider balance
page-catalogue-title = Catalogue
page-catalogue-from-file = In use: the catalogue file (no edit yet).
page-catalogue-version = In use: edit { $version }.
page-catalogue-how = Change a name, a price or a tier's price, or hide a product; then review and confirm.
page-catalogue-name = Name
page-catalogue-price = Price
page-catalogue-tier-price = { $tier }
page-catalogue-offered = offered
page-catalogue-hidden = hidden
page-catalogue-review = Review changes
page-catalogue-review-title = Your changes
page-catalogue-confirm = Confirm changes
page-catalogue-confirm-hint = Confirm applies them at once, in the chat too: new summaries use the new prices.
page-catalogue-no-changes = Nothing would change.
page-catalogue-applied = Applied: the catalogue in use is now edit { $version }.
page-catalogue-already = Already applied (edit { $version }).
page-catalogue-invalid = { $count ->
    [one] One thing to fix (nothing was changed):
   *[other] { $count } things to fix (nothing was changed):
}
page-catalogue-problem = { $where }: { $problem }
page-catalogue-stale = Somebody changed the catalogue meanwhile (now edit { $version }). Your edits are kept, on top of their changes: review them again.
page-catalogue-conflict-price = { $code } price: you set { $mine }, someone else set { $theirs } meanwhile; yours is kept — check it.
page-catalogue-conflict-tier = { $code } price for tier { $tier }: you set { $mine }, someone else set { $theirs } meanwhile; yours is kept — check it.
page-catalogue-conflict-name = { $code } name: you wrote “{ $mine }”, someone else “{ $theirs }” meanwhile; yours is kept — check it.
page-catalogue-conflict-gone = { $code } was removed meanwhile: your changes to it could not be kept.
page-catalogue-routes = Routes, in order (provider, its code)
page-catalogue-routes-all = Sold through every provider ({ $providers }), under its code.
page-catalogue-routes-choose = Choose routes
page-catalogue-routes-every = Use every provider
page-catalogue-route-add = Add a route
page-catalogue-route-up = Move up
page-catalogue-route-remove = Remove
page-catalogue-route-provider = Provider of route { $n }
page-catalogue-route-code = Code at { $provider }
page-catalogue-conflict-routes = { $code } routes: someone else changed them meanwhile; yours are kept — check them.
page-catalogue-warnings = { $count ->
    [one] One price needs a second look (marked ⚠ below). Confirm only if it is what you want.
   *[other] { $count } prices need a second look (marked ⚠ below). Confirm only if they are what you want.
}
page-price-none = no price
page-price-format = I can't tell which amount this is: write e.g. 21000, 21.000, Rp21.000, 21rb or 1,5jt.
page-amount-format = I can't read this as an amount: write e.g. 50000, Rp 50.000, Rp 50.000,00, 50rb or 1,5jt. A dot or comma before three digits groups thousands; a decimal like 1,5 needs rb or jt after it.
page-amount-above-zero = Write an amount above zero, e.g. 50rb.
page-amount-too-large = That is more than { $max }: write e.g. 1,5jt.
page-diff-added = { $code } { $name } added to { $game } at { $price }
page-diff-removed = { $code } { $name } removed
page-diff-price = { $code }: { $from } → { $to }
page-diff-price-tier = { $code }, tier { $tier }: { $from } → { $to }
page-diff-renamed = { $code }: “{ $from }” → “{ $to }”
page-diff-moved = { $code }: { $from } → { $to }
page-diff-disabled = { $code } hidden
page-diff-enabled = { $code } offered again
page-diff-rule = { $game }: player id rule changed
page-diff-routes = { $code }, routes: { $from } → { $to }
page-routes-all = every provider, under its code
page-diff-warning-below-cost = ⚠ Below the provider's last price ({ $provider }): every sale loses { $loss }.
page-diff-warning-far = ⚠ { $percent }% away from the price it replaces ({ $from }): a typo?
page-pending-title = Pending
page-pending-none = No order waits to be settled.
page-pending-help = Check each order in the provider's dashboard, then settle it here: the user is told in the chat.
page-pending-success = Success
page-pending-failed = Failed
page-pending-sn = SN from the provider's dashboard
page-pending-reason = Why it failed
page-pending-settle-success = Settle as success
page-pending-settle-failed = Settle as failed
page-pending-settled = { $ref } settled: { $state }.
page-pending-told-user = The user has been told.
page-pending-told-callback = The partner's system gets a callback (H2H).
page-pending-told-nothing = The partner was sent nothing (H2H, no callback URL): they see it when they ask its status.
page-pending-already = { $ref } was settled already (here or in the chat).
page-resellers-title = Resellers
page-resellers-owed = Owed to resellers
page-resellers-none = No resellers yet. Add one in the chat: /allow USER_ID reseller
page-resellers-tier = tier { $tier }
page-resellers-no-longer = no longer a reseller
page-reseller-title = Reseller { $id }
page-saldo = Saldo
page-held-label = Held
page-held = held { $held }
page-held-hint = for orders whose result is unknown
page-tier = Price tier
page-deposit-open = Deposit or correction
page-deposit-title = Deposit or correction
page-deposit-amount = Amount (rupiah; negative for a correction)
page-deposit-amount-format = Write whole rupiah, e.g. 50000, 50.000, Rp50.000, 50rb, 1,5jt or -5rb. A dot or comma before three digits groups thousands; a decimal like 1,5 needs rb or jt after it.
page-deposit-note = Note (optional)
page-deposit-amount-short = Amount
page-deposit-note-short = Note
page-deposit-hint = You confirm on the next step; the saldo changes only then.
page-deposit-review = Review
page-deposit-review-title = Deposit to confirm
page-correction-review-title = Correction to confirm
page-deposit-before = Saldo now
page-deposit-after = Saldo after
page-deposit-change = Change it
page-deposit-confirm = Confirm deposit
page-deposit-done = Credited { $amount }: the saldo is now { $saldo }. The reseller has been told in the chat.
page-deposit-already = This deposit was credited already ({ $amount }, saldo after it { $saldo }): a deposit is credited once.
page-deposit-was-cancelled = This deposit was cancelled.
page-deposit-below-zero = That would take the saldo below 0 (it is { $saldo }).
page-statement-title = Statement
page-statement-empty = No movements yet.
page-statement-deposit = Deposit
page-statement-correction = Correction
page-statement-spent = Spent on an order
page-statement-held = Held for an order (result not known yet)
page-statement-refund = Refund (order failed)
page-movement-after = saldo { $saldo }
page-orders-title = Orders
page-orders-search = Ref id or player id
page-orders-search-hint = TG… or 12345678(1234)
page-orders-day = Day
page-orders-outcome = Outcome
page-orders-any = Any
page-orders-user = User id
page-orders-user-hint = any user
page-orders-find = Find
page-orders-none = No orders match.
page-orders-csv = CSV of { $day }
page-wallet-title = Your saldo
page-my-orders-title = Your orders
page-my-orders-none = No orders yet.
page-prices-title = Your prices
page-prices-none = Nothing is for sale to you right now.
page-product-resting = temporarily unavailable

## Deposit requests: /payinfo, a reseller's /deposit AMOUNT, the proof, Approve / Other amount / Reject
help-payinfo = /payinfo [TEXT|off]: how resellers pay for a deposit (send a photo with the caption /payinfo for a QRIS)
help-deposit-request = /deposit AMOUNT: ask to top up your saldo by transfer
command-payinfo = Payment instructions for resellers' deposits
deposit-not-for-you = /deposit is for admins and resellers.
payinfo-none = No payment instructions yet: resellers cannot ask for a deposit. Set them with <code>/payinfo Bank BCA 1234567890 a.n. Toko</code>, or send the QRIS photo with the caption <code>/payinfo</code>.
payinfo-removed = Payment instructions removed: resellers cannot ask for a deposit until new ones are set.
payinfo-title = <b>Payment instructions</b> (shown with every deposit request):
payinfo-too-long = The instructions can be at most { $max } characters.
payinfo-default-qris = Scan the QRIS above.
payinfo-set = ✅ Payment instructions set. Resellers see them with every deposit request:
payinfo-with-image = (with the image)
request-usage = Use <code>/deposit AMOUNT</code>, e.g. <code>/deposit 100rb</code>: from { $min } to { $max }. You get the exact amount to transfer.
request-bad-amount = <code>{ $typed }</code> is not an amount you can ask for: write it like <code>100000</code>, <code>100rb</code> or <code>Rp100.000</code>, from { $min } to { $max }.
request-no-pay-info = The shop has not set up deposits yet. Ask the admin.
request-private-only = 🔒 Deposit requests are made and shown only in your private chat with me, not here where the whole group reads along: nothing was made or shown here. Open @{ $bot } and send /{ $command } there.
request-private-only-short = Deposit requests are made only in your private chat with the bot: nothing was made here.
request-open-private = Open the private chat
request-too-many = You have { $open } open deposit requests already: send their proofs or cancel one first.
request-too-soon = You asked for { $max } deposit requests in the last hour, the most there may be: you can ask again at { $at }.
request-no-code = Every unique code of this amount is taken by other requests right now: try a slightly different amount.
request-made =
    💳 <b>Deposit request</b> <code>{ $id }</code>
    Transfer exactly <b>{ $exact }</b> ({ $amount } + code { $code }): this exact amount is what gets credited.
request-proof-hint = Then send the photo of your transfer as a reply to this message (before { $until }).
request-cancel = Cancel request
request-top-up = 💳 Top up saldo
request-amount-ask = 💳 How much do you want to top up ({ $min } to { $max })? Reply to this message with the amount, e.g. 100rb.
request-status =
    💳 Deposit request <code>{ $id }</code>: <b>{ $state }</b>
    Amount: { $exact } · asked { $age }
request-status-credited = Credited: { $amount }
request-status-reason = Reason: { $reason }
request-state-proof = waiting for proof
request-state-review = waiting for approval
request-state-approved = approved
request-state-rejected = rejected
request-state-expired = expired
request-state-cancelled = cancelled
request-state-hand = credited by hand
request-proof-received = 📨 Proof received for <code>{ $id }</code>. The admin checks the transfer; you will hear when your saldo is credited.
request-proof-none = No deposit request of yours waits for a proof. Ask with <code>/deposit AMOUNT</code> first.
request-proof-which = Several of your requests wait for a proof: which one is this transfer for?
request-proof-gone = That proof is no longer kept: send the photo again, as a reply to its request.
request-not-found = No such deposit request.
request-proof-closed = Request <code>{ $id }</code> does not take a proof any more: { $state }.
request-proof-too-large = That file is over 20 MB: send a screenshot of the transfer instead.
request-proof-type = Send the proof as a photo, an image (JPEG, PNG, WebP) or a PDF of the transfer.
request-proof-unreadable = That file could not be read from Telegram just now: send it again in a moment.
request-cancel-too-late = This request cannot be cancelled: { $state }.
request-cancelled = Request <code>{ $id }</code> cancelled.
request-decided = Already decided: { $state }.
request-approved-toast = Approved and credited
request-approved = ✅ <code>{ $id }</code> approved: { $amount } credited. The reseller's saldo: <b>{ $saldo }</b>.
request-rejected-toast = Rejected
request-reason-ask = ✍️ Rejected <code>{ $id }</code>. Reply to this message with a short reason for the reseller (without one within 10 minutes they are told it was rejected).
request-reason-placeholder = The reason, e.g. no transfer found
request-other-ask = 💵 Which amount does the bank show for <code>{ $id }</code> (asked: { $exact })? Reply to this message with it.
request-other-summary = Credit <b>{ $amount }</b> for <code>{ $id }</code> instead of { $exact }?
request-other-confirm = ✅ Confirm
request-other-cancelled = Nothing credited for <code>{ $id }</code>: it still waits for Approve, Other amount or Reject.
request-reason-sent = The reseller was told why <code>{ $id }</code> was rejected.
request-reason-late = The reseller was already told about <code>{ $id }</code>.
request-age-now = just now
request-age-minutes = { $n } min ago
request-age-hours = { $n } h ago
request-admin-title = 💳 <b>Deposit request</b> <code>{ $id }</code>
request-admin-who = From { $name }<code>{ $userId }</code>, tier { $tier }
request-admin-amount = Transfer: <b>{ $exact }</b> ({ $amount } + code { $code })
request-admin-saldo = Saldo now: { $saldo }
request-admin-age = Asked { $age }
request-proof-sent-before = ⚠️ This image was already sent for <code>{ $id }</code>.
request-admin-saldo-after = Saldo after the credit: <b>{ $saldo }</b>
request-decided-approved = ✅ Approved by { $name }<code>{ $adminId }</code>: { $amount } credited.
request-decided-hand = ✍️ Credited by hand by { $name }<code>{ $adminId }</code>: { $amount }.
request-decided-rejected = ❌ Rejected by { $name }<code>{ $adminId }</code>.
request-decided-other = ☑️ { $state }: { $name }<code>{ $adminId }</code>.
request-decided-expired = ⌛ Expired without a decision.
request-decided-cancelled = 🚫 Cancelled by the reseller.
report-requests = Deposit requests: { $asked } asked ({ $askedAmount }) · { $approved } approved ({ $approvedAmount }) · { $rejected } rejected · { $expired } expired
export-deposits-caption = Deposits of { $month }: { $count } (times in { $tz }), with the request each answers and who approved it
request-approve = ✅ Approve
request-other = 💵 Other amount
request-reject = ❌ Reject
request-expired-told = ⌛ Your deposit request <code>{ $id }</code> ({ $amount }) expired without a proof. If you transferred, ask the admin with the request id.
request-rejected-told = ❌ Your deposit request <code>{ $id }</code> ({ $amount }) was rejected.
request-rejected-reason-told = ❌ Your deposit request <code>{ $id }</code> ({ $amount }) was rejected: { $reason }

## Mini App: deposit requests (the admins' Pending page, the reseller's wallet)
page-requests-title = Deposit requests
page-today-requests = Deposit requests approved / asked
page-today-requests-hint = { $approved } credited · { $rejected } rejected · { $expired } expired
page-requests-none = No deposit request waits for you.
page-requests-no-pay-info = No payment instructions yet: resellers cannot ask for a deposit. Set them below.
page-request-state-proof = waiting for proof
page-request-state-review = waiting for approval
page-request-state-approved = approved
page-request-state-rejected = rejected
page-request-state-expired = expired
page-request-state-cancelled = cancelled
page-request-state-hand = credited by hand
page-request-who = { $name } ({ $id }) · saldo { $saldo }
page-request-code = { $amount } + code { $code }
page-request-sent-before = This image was already sent for { $id }.
page-request-proof = Proof of transfer
page-request-proof-pdf = Open the proof (PDF)
page-request-proof-failed = The proof could not be fetched from Telegram.
page-request-approve = Approve
page-request-other = Other amount
page-request-reject = Reject
page-request-other-amount = The amount the bank shows (rupiah)
page-request-reason = A short reason for the reseller (optional)
page-request-other-review = Check the amount
page-request-other-summary = Credit { $amount } for { $id } instead of { $exact }?
page-request-other-hint = Nothing is credited until you confirm.
page-request-other-confirm = Confirm: credit { $amount }
page-request-other-change = Change the amount
page-request-approved = { $id } approved: { $amount } credited, saldo now { $saldo }. The reseller has been told.
page-request-rejected = { $id } rejected. The reseller has been told.
page-request-taken = { $id } was decided already (here or in the chat).
page-request-taken-approved = { $id } was already approved by { $name }: { $amount } credited.
page-request-taken-hand = { $id } was already credited by hand by { $name }: { $amount }.
page-request-taken-rejected = { $id } was already rejected by { $name }.
page-payinfo-title = Payment instructions
page-payinfo-label = Bank, account number and name, or "scan the QRIS"
page-payinfo-hint = Shown with every deposit request. For a QRIS image, send the photo to the bot with the caption /payinfo.
page-payinfo-save = Save instructions
page-payinfo-saved = Payment instructions saved.
page-topup-title = Top up saldo
page-topup-amount = Amount (rupiah), { $min } to { $max }
page-topup-outside = { $amount } is outside what you can ask for: { $min } to { $max }.
page-topup-ask = Ask for a deposit
page-topup-made = Transfer exactly { $exact } ({ $amount } + code { $code }), then send the proof of the transfer with Send proof below, or in the chat as a reply to request { $id }.
page-topup-no-pay-info = The shop has not set up deposits yet.
page-topup-too-many = You have 3 open requests already: send their proofs or cancel one first.
page-topup-too-soon = You asked for 10 deposit requests in the last hour, the most there may be: you can ask again at { $at }.
page-topup-no-code = Every unique code of this amount is taken by other requests right now: try a slightly different amount.
page-my-requests = My deposit requests
page-request-cancel = Cancel
page-proof-send = Send proof
page-proof-sent = Proof received for { $id }. The admin checks the transfer; you will hear in the chat when your saldo is credited.
page-proof-type = Send the proof as an image (JPEG, PNG, WebP) or a PDF, at most 10 MB.
page-proof-busy = Many proofs are being sent right now: try again in a few seconds.

## The H2H API (resellers' systems ordering by HTTP)
notice-via-api = Ordered through the H2H API.
notice-settled-by-provider = Settled by the provider's own status answer.
notice-loss = 🔻 <b>Loss</b>: sold at { $price }, below the provider price { $cost }: <b>{ $loss }</b> lost on this sale.
api-sales-heading = 🔌 <b>H2H API sales</b>, the last { $minutes } min:
api-sales-line = • { $user } (<code>{ $userId }</code>): { $sold } sold, { $revenue }{ $failed ->
    [0] {""}
   *[other] , { $failed } failed
}

## /apikey: a reseller's key for the shop's API (H2H)
command-apikey = A reseller's key for the shop's API
help-apikey = /apikey ID [off|status|callback URL|none|test]: a reseller's key for the shop's API (H2H)
apikey-usage = Use <code>/apikey USER_ID</code> in your private chat with the bot to create or renew a reseller's API key (shown once), <code>/apikey USER_ID off</code> to turn their access off, <code>/apikey USER_ID callback URL</code> (or <code>callback none</code>) for the address their system hears late results at, <code>/apikey USER_ID status</code> to see it, and <code>/apikey USER_ID test</code> (then <code>test callback URL</code>) for a test key that orders nothing.
apikey-list-title = <b>Resellers with an API key</b>
apikey-list-more = … and { $n } more.
apikey-h2h-off = ⚠️ The shop's API is off until H2H_ENABLED=true is set (and the bot restarted): until then every request is refused.
apikey-private-only = 🔒 A key is shown only in your private chat with the bot: send <code>/apikey { $userId }</code> there. Nothing was created.
apikey-not-reseller = API keys are for resellers only.
apikey-issued = 🔑 <b>API key</b> for { $name }<code>{ $userId }</code>
apikey-rotated = 🔑 <b>New API key</b> for { $name }<code>{ $userId }</code>: the old key no longer works.
apikey-credentials =
    mitra_id: <code>{ $mitraId }</code>
    secret_key: <code>{ $secretKey }</code>
    signing_secret: <code>{ $signingSecret }</code>
    (callbacks carry <code>X-Signature: sha256=</code> the HMAC-SHA256 of their body with it)
apikey-address = Orders: <code>{ $url }?destination=…&amp;ref_id=…&amp;item_code=…&amp;mitra_id=…&amp;secret_key=…</code>
apikey-address-unknown = Orders: the shop's public address followed by <code>/v1/transaction/partner?destination=…&amp;ref_id=…&amp;item_code=…&amp;mitra_id=…&amp;secret_key=…</code>
apikey-once = This key is shown only this once: pass it on to the reseller safely. <code>/apikey { $userId }</code> again makes a new one and stops this one.
apikey-already-shown = This /apikey was handled already: its key was shown once and is not shown again. Send <code>/apikey { $userId }</code> again for a new key.
apikey-off = 🚫 API access of { $name }<code>{ $userId }</code> is off: their requests are refused from now on. <code>/apikey { $userId }</code> in your private chat turns it on again with a new key.
apikey-none = { $name }<code>{ $userId }</code> has no API key. <code>/apikey { $userId }</code> in your private chat with the bot creates one.
apikey-status = { $name }<code>{ $userId }</code>: mitra_id <code>{ $mitraId }</code>, access <b>{ $state }</b>, callback: { $callback }
apikey-state-on = on
apikey-state-off = off
apikey-callback-none = none
apikey-callback-usage = Use <code>/apikey USER_ID callback URL</code>, or <code>/apikey USER_ID callback none</code> to remove it.
apikey-callback-bad = <code>{ $typed }</code> is not a callback address: give an http:// or https:// URL of at most { $max } characters, e.g. <code>https://example.com/topup/callback</code>, or <code>none</code>.
apikey-callback-set = ✅ Callback of { $name }<code>{ $userId }</code>: { $url }
apikey-callback-removed = ✅ Callback of { $name }<code>{ $userId }</code> removed.
apikey-callback-private = <code>{ $typed }</code> is not a callback address: it leads into a private network (loopback, 10.x, 192.168.x, link-local, …), where the shop sends no callback. Give the reseller's public address (set <code>H2H_CALLBACK_ALLOW_PRIVATE=true</code> only for tests or a private network of your own).
apikey-callback-unresolved = <code>{ $typed }</code> is not a callback address: its host name has no address (DNS answered nothing). Check the name, or try again once its DNS is set up.
apikey-test-issued = 🧪 <b>Test key</b> for { $name }<code>{ $userId }</code>: its orders order nothing, move no saldo and appear in no report.
apikey-test-rotated = 🧪 <b>New test key</b> for { $name }<code>{ $userId }</code>: the old test key no longer works.
apikey-test-how = With it, a destination starting with <code>FAIL</code> fails, one starting with <code>PEND</code> is answered pending and succeeds about 5 s later, any other succeeds; every answer carries <code>test: true</code>. Its callbacks go to <code>/apikey { $userId } test callback URL</code>.
apikey-test-once = This test key is shown only this once. <code>/apikey { $userId } test</code> again makes a new one and stops this one.
apikey-test-access-off = ⚠️ API access of this reseller is off: the test key is refused too until <code>/apikey { $userId }</code> turns it on.
apikey-test-private-only = 🔒 A test key is shown only in your private chat with the bot: send <code>/apikey { $userId } test</code> there. Nothing was created.
apikey-test-already-shown = This /apikey … test was handled already: its test key was shown once and is not shown again. Send <code>/apikey { $userId } test</code> again for a new one.
apikey-test-none = { $name }<code>{ $userId }</code> has no test key. <code>/apikey { $userId } test</code> in your private chat with the bot creates one.
apikey-test-callback-head = 🧪 Test key:
apikey-status-test = test key: mitra_id <code>{ $mitraId }</code>, callback: { $callback }

## Mini App: API access on a reseller's page (plain text)
page-resellers-api-on = API on
page-api-title = API access (H2H)
page-api-access = Access
page-api-on = on
page-api-off = off
page-api-none = no key yet
page-api-mitra = mitra_id
page-api-callback = Callback URL
page-api-callback-none = none
page-api-callback-hint = An http:// or https:// address of at most 500 characters, where the reseller's system hears late results.
page-api-callback-save = Save callback
page-api-callback-remove = Remove callback
page-api-callback-saved = Callback saved.
page-api-callback-removed = Callback removed.
page-api-callback-invalid = Give an http:// or https:// address of at most 500 characters.
page-api-callback-private = This address leads into a private network (loopback, 10.x, 192.168.x, link-local, …): the shop sends no callback there. Give the reseller's public address.
page-api-callback-unresolved = This host name has no address (DNS answered nothing): check the name.
page-callbacks-title = Last callbacks
page-callbacks-none = No callback was sent to this reseller yet.
page-callbacks-attempt = attempt { $n }
page-callbacks-ok = ✓ { $status }
page-callbacks-refused = ✗ HTTP { $status }
page-callbacks-not-reached = ✗ not reached
page-callbacks-why-private = private address
page-callbacks-why-unresolved = no address
page-callbacks-why-timeout = no answer in 10 s
page-callbacks-test = test
page-callbacks-again = Send again
page-callbacks-sent-again = The callback of { $ref } goes out again within a minute (the same event_id).
page-api-create = Create a key
page-api-turn-on = Turn on with a new key
page-api-rotate = New key
page-api-rotate-warning = The current key stops working at once: the reseller's system needs the new one. Tap "Make the new key" to go ahead.
page-api-rotate-confirm = Make the new key
page-api-turn-off = Turn off
page-api-key-sent = A new key was sent to your private chat with the bot: it is shown there once, never here.
page-api-key-repeated = This key was made already and sent to your chat with the bot.
page-api-turned-off = API access turned off: the reseller's requests are refused from now on.
page-api-not-sent = The new key could not be sent to your chat with the bot, and the old key no longer works: open the bot, press Start, then make a new key.
page-api-disabled = The shop's API is off until H2H_ENABLED=true is set: keys can be made now, requests are refused until then.

## #46 ordering: the same player a moment ago, and ordering in the Mini App
order-placed-before-you = 🔁 <b>Ordered before:</b> you ordered this for this player at { $time } ({ $minutes ->
        [0] just now
        [one] 1 minute ago
       *[other] { $minutes } minutes ago
    }), ref <code>{ $refId }</code>.
order-placed-before-other = 🔁 <b>Ordered before:</b> { $name } ordered this for this player at { $time } ({ $minutes ->
        [0] just now
        [one] 1 minute ago
       *[other] { $minutes } minutes ago
    }), ref <code>{ $refId }</code>.
order-summary-hint-again = Tap <b>Order again</b> only if the player should get it a second time. Nothing is ordered before that.
button-order-again = 🔁 Order again
page-tab-order = Order
page-order-title = New order
page-order-saldo = Your saldo: { $saldo }
page-order-paused = Orders are paused: { $reason }
page-order-product-disabled = not offered now
page-order-product-resting = temporarily unavailable
page-order-player-title = Player id
page-order-player-label = Player id
page-order-player-example = Example: { $example }
page-order-bad-player = That is not a valid player id for this game. It should look like { $example }.
page-order-continue = Continue
page-order-summary-title = Check your order
page-order-price = Price: { $price }
page-order-saldo-after = Saldo: { $before } → after this order { $after }
page-order-ref = Order ref
page-order-short-before = Your saldo is less than { $price }: top up first (Saldo tab), then confirm.
page-order-before-you = Ordered before: you ordered this for this player at { $time } ({ $minutes ->
        [0] just now
        [one] 1 minute ago
       *[other] { $minutes } minutes ago
    }), ref { $refId }. Confirm only if the player should get it a second time.
page-order-before-other = Ordered before: { $name } ordered this for this player at { $time } ({ $minutes ->
        [0] just now
        [one] 1 minute ago
       *[other] { $minutes } minutes ago
    }), ref { $refId }. Confirm only if the player should get it a second time.
page-order-confirm = Confirm order
page-order-again = Order again
page-order-cancel = Cancel
page-order-not-offered = This product is not for sale now: choose another one.
page-order-unavailable = This product is temporarily unavailable: nothing was ordered. Try again later.
page-order-short = Not enough saldo: you have { $saldo }, this order costs { $price }. Nothing was ordered.
page-order-too-soon = Too many orders started at once: wait a minute, then try again.
page-order-result-title = Your order
page-order-processing = Processing order { $refId }… This takes up to a minute. Do not order again: the result appears here and in the chat.
page-order-checking = Asking the bot how the order stands ({ $why }). Nothing is ordered twice.
page-order-not-sent = This order was not sent: nothing was ordered.
page-order-success = Top-up successful.
page-order-failed = The top-up failed. Nothing was charged for it.
page-order-held = Result unknown: the provider has not said yet. Your saldo for it stays held until the shop checks it; you are told in the chat as soon as it is settled. Do not order it again.
page-order-unknown = Result unknown: the provider has not said yet. It is in Pending until it is settled; the order is not sent again.
page-order-cancelled = This order was cancelled: nothing was ordered.
page-order-copy-sn = Copy SN
page-order-copied = Copied ✓
page-order-new = New order
receipt-picture-title = Top-up receipt
receipt-picture-status = SUCCESSFUL
receipt-picture-game = Game
receipt-picture-product = Product
receipt-picture-player-id = Player ID
receipt-picture-player-name = Player name
receipt-picture-sn = SN (serial number)
receipt-picture-ref = Ref ID
receipt-picture-thanks = Thank you for your purchase!
page-order-receipt = Receipt picture
page-order-receipt-share = Share
page-order-receipt-save = Save picture
page-order-receipt-failed = The receipt picture could not be loaded.
report-xlsx-button = 📊 Excel
export-xlsx-button = 📊 Excel (.xlsx) of { $month }
export-xlsx-too-many = { $month } has { $count } orders: too many for one Excel workbook. The CSV (/export { $month }) opens in Excel too.
page-orders-xlsx = Excel

## #46 recap
recap-title = 📊 <b>Recap of { $date }</b>
recap-late = ⏰ Late: due { $time }
recap-orders = Orders: { $total } (✅ { $success } · ❌ { $failed } · ⚠️ { $unknown } · ⏳ { $submitting })
recap-revenue = Revenue: <b>{ $selling }</b>
recap-margin = Margin: <b>{ $margin }</b>
recap-unpriced = ({ $count ->
    [one] one sale
   *[other] { $count } sales
  } at an unknown provider price, { $selling }, left out of the margin)
recap-deposits = Deposits credited: { $amount }
recap-owed = Owed to resellers: <b>{ $total }</b> (saldo { $saldo } · held { $held })
recap-balance = Provider balance: { $balance }
recap-balance-at = Balance at { $provider }: { $balance }
recap-balance-unseen = not reported yet
recap-pending-none = Pending orders: none
recap-pending = ⚠️ Pending orders: <b>{ $count }</b>, oldest <code>{ $refs }</code> (/pending)
recap-picture-title = Recap
recap-picture-sales = Sales
recap-picture-revenue = Revenue
recap-picture-margin = Margin
recap-picture-sales-chart = Successful orders per day
recap-picture-margin-chart = Margin per day
recap-picture-late = late: due { $time }
reseller-low-saldo = ⚠️ Your saldo is down to <b>{ $saldo }</b>, below { $threshold }. Top up with <code>/deposit AMOUNT</code> (e.g. <code>/deposit 100000</code>) so your next orders go through.
