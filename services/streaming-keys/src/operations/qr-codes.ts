import QRCode from 'qrcode';
import type { ServiceCode } from '@bo/proto';
import { keyInfoText } from '../domain/keys';
import type { PrismaClient, StreamingKey } from '../generated/prisma/client';
import { keyStore } from '../store/key-store';

/** A PNG QR code of the key's details as a data: URL, kept in streaming_qr_codes. */
export async function generateKeyQr(prisma: PrismaClient, key: StreamingKey) {
  const qrCodeData = await QRCode.toDataURL(keyInfoText({ ...key, service: key.service as ServiceCode }), { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, width: 300 });
  return keyStore.saveQrCode(prisma, key.id, qrCodeData);
}
