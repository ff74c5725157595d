import QRCode from 'qrcode';

/** One EMVCo TLV field: two-digit tag, two-digit length, value. */
const tlv = (tag: string, value: string) => `${tag}${String(value.length).padStart(2, '0')}${value}`;

/** CRC-16/CCITT-FALSE over the payload including "6304", as EMVCo requires. */
function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export interface QrFacts {
  invoiceId: string;
  amount: number;
  merchantName: string;
  merchantCity: string;
  reference: string;
}

/** An EMVCo merchant-presented payload like QPay's: dynamic QR, MNT (496), Mongolia, merchant name and city. */
export function emvQrText(facts: QrFacts): string {
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', tlv('00', 'mn.qpay') + tlv('01', facts.invoiceId.replaceAll('-', '').toUpperCase())) +
    tlv('52', '5999') +
    tlv('53', '496') +
    tlv('54', String(facts.amount)) +
    tlv('58', 'MN') +
    tlv('59', facts.merchantName.slice(0, 25)) +
    tlv('60', facts.merchantCity.slice(0, 15)) +
    tlv('62', tlv('01', facts.reference.slice(0, 25)));
  const withCrcTag = `${body}6304`;
  return withCrcTag + crc16(withCrcTag);
}

/** A real, scannable PNG of the payload, base64 without a data: prefix (as QPay sends it). */
export async function qrPngBase64(qrText: string): Promise<string> {
  const png = await QRCode.toBuffer(qrText, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 300 });
  return png.toString('base64');
}
