import { useEffect, useState } from "preact/hooks";
import { ApiFailure } from "../client.js";
import { failureText, useApp, useBusy } from "../ui.js";

/**
 * The receipt picture of a successful order, as the chat's Receipt button sends it: loaded on a
 * tap (with the init data), shown at the card's width, then shared (the phone's share sheet, to
 * WhatsApp say) or saved.
 */
export function ReceiptButton(props: { refId: string }) {
  const { api, words, session } = useApp();
  const { t } = words;
  const [picture, setPicture] = useState<{ url: string; file: File } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, guard] = useBusy();
  useEffect(() => () => picture && URL.revokeObjectURL(picture.url), [picture]);

  const load = guard(async () => {
    try {
      const blob = await api.receipt(session.role, props.refId);
      const file = new File([blob], `receipt-${props.refId}.png`, { type: "image/png" });
      setPicture({ url: URL.createObjectURL(blob), file });
      setError(undefined);
    } catch (err) {
      const failure = err instanceof ApiFailure ? err : new ApiFailure(0, { error: "internal" });
      setError(failure.status === 0 ? failureText(words, failure) : t("page-order-receipt-failed"));
    }
  });

  if (picture === undefined)
    return (
      <div class="receipt">
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() => void load()}
          data-testid={`receipt-${props.refId}`}
        >
          {busy ? t("page-working") : `🧾 ${t("page-order-receipt")}`}
        </button>
        {error === undefined ? null : <p class="order-error">{error}</p>}
      </div>
    );
  const canShare = typeof navigator.canShare === "function" && navigator.canShare({ files: [picture.file] });
  return (
    <div class="receipt">
      <img src={picture.url} alt={t("page-order-receipt")} data-testid={`receipt-picture-${props.refId}`} />
      <div class="actions">
        {canShare ? (
          <button
            type="button"
            class="secondary"
            onClick={() => void navigator.share({ files: [picture.file] }).catch(() => undefined)}
          >
            {t("page-order-receipt-share")}
          </button>
        ) : null}
        <a class="button secondary" href={picture.url} download={picture.file.name} data-testid="receipt-save">
          {t("page-order-receipt-save")}
        </a>
      </div>
    </div>
  );
}
