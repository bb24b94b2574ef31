/**
 * What a proof of transfer is, read from its first bytes (never from its name or the type its
 * sender declared): a JPEG, PNG or WebP image, or a PDF. Anything else is no proof.
 */
export function proofType(bytes: Uint8Array): { type: string; inline: boolean } | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return { type: "image/jpeg", inline: true };
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return { type: "image/png", inline: true };
  if (b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP")
    return { type: "image/webp", inline: true };
  if (b.subarray(0, 5).toString("latin1") === "%PDF-") return { type: "application/pdf", inline: false };
  return undefined;
}
