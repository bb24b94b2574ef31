import { useState } from "preact/hooks";

/** The old way to copy, for a webview without the clipboard API (or one that refuses it). */
function copyByHand(text: string): boolean {
  const box = document.createElement("textarea");
  box.value = text;
  box.setAttribute("readonly", "");
  box.style.position = "fixed";
  box.style.opacity = "0";
  document.body.appendChild(box);
  box.select();
  try {
    return document.execCommand("copy");
  } finally {
    box.remove();
  }
}

/** Copies a text (an SN) with one tap and says so. */
export function CopyButton(props: { text: string; label: string; done: string; testid: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setCopied(true);
    } catch {
      setCopied(copyByHand(props.text));
    }
  };
  return (
    <button type="button" class="secondary" onClick={() => void copy()} data-testid={props.testid}>
      {copied ? props.done : props.label}
    </button>
  );
}
