import QRCode from 'qrcode';

/** The QR code of a download link as a PNG data URL; medium error correction survives a glossy screen. */
export function qrDataUrl(url: string): Promise<string> {
  return QRCode.toDataURL(url, { errorCorrectionLevel: 'M', margin: 2, width: 480 });
}
