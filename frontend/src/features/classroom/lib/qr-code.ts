/**
 * The join link as a QR code for the projector: drawn here, in the browser, as SVG (so it stays
 * sharp at any size) and shown through an <img> data URL, never injected as markup.
 */
import { toString as renderQr } from 'qrcode';

/** M (15 % recoverable) reads reliably off a projector; the quiet zone is two modules wide. */
const QR_OPTIONS = { type: 'svg', errorCorrectionLevel: 'M', margin: 2 } as const;

export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await renderQr(text, QR_OPTIONS);
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
