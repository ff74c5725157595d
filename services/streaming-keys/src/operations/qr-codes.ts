import QRCode from 'qrcode';
import type { ServiceCode } from '@bo/proto';
import { keyInfoText } from '../domain/keys';
import type { PrismaClient, StreamingKey } from '../generated/prisma/client';
import { keyStore } from '../store/key-store';
import { tryAgainAt, type FetchLimits } from './fetch-limits';
import { waitInWords } from '../domain/code-fetch';

/** A PNG QR code of the key's details as a data: URL, kept in streaming_qr_codes. */
export async function generateKeyQr(prisma: PrismaClient, key: StreamingKey) {
  const qrCodeData = await QRCode.toDataURL(keyInfoText({ ...key, service: key.service as ServiceCode }), { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, width: 300 });
  return keyStore.saveQrCode(prisma, key.id, qrCodeData);
}

/**
 * A customer's QR of their key: a new PNG and row at most once per key interval (a customer's
 * clicks must not grow the table or the CPU bill); in between, the QR made last.
 */
export async function customerKeyQr(prisma: PrismaClient, limits: FetchLimits, key: StreamingKey) {
  const next = await limits.takeTurn(`qr:${key.id}`);
  if (!next) return generateKeyQr(prisma, key);
  const latest = await keyStore.latestQrCode(prisma, key.id);
  if (latest) return latest;
  // Another click is making the first one at this moment.
  throw tryAgainAt(429, 'too_soon', `The QR code of this key is being made. Please try again in ${waitInWords(next.getTime() - Date.now())}.`, next);
}
