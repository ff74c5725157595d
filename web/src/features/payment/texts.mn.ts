import type { Translation } from '../../i18n/catalogue-type';
import type { en } from './texts.en';

export const mn: Translation<typeof en> = {
  'payment.pageTitle': 'Нэхэмжлэхийн төлбөр',
  'payment.loading': 'Нэхэмжлэхийг ачаалж байна...',
  'payment.notFoundTitle': 'Нэхэмжлэх олдсонгүй',
  'payment.notFoundBody': 'Таны хайж буй нэхэмжлэх байхгүй эсвэл устгагдсан байна.',
  'payment.loadError': 'Нэхэмжлэхийг ачаалж чадсангүй',
  'payment.tryAgain': 'Дахин оролдох',

  'payment.inAppTitle': 'Энэ хуудсыг утасныхаа хөтчөөр нээнэ үү',
  'payment.inAppBody': 'Facebook, Messenger, Instagram дотроос банкны апп ихэвчлэн нээгддэггүй. Холбоосыг хуулж Safari эсвэл Chrome-д нээнэ үү, эсвэл энэ аппын цэснээс «Хөтчөөр нээх»-ийг сонгоно уу.',
  'payment.copyLink': 'Холбоос хуулах',
  'payment.linkCopied': 'Холбоос хуулагдлаа',
  'payment.linkCopiedBody': 'Safari эсвэл Chrome-д буулгана уу.',
  'payment.copyFailed': 'Санах ойд хуулж чадсангүй',

  'payment.customer': 'Үйлчлүүлэгч',
  'payment.amount': 'Дүн',
  'payment.scanQr': 'QR кодыг банкны аппаараа уншуулна уу',
  'payment.qrAlt': '{invoiceId} нэхэмжлэхийн QR код',
  'payment.noQr': 'Энэ нэхэмжлэхэд QR код алга.',
  'payment.invoiceId': 'Нэхэмжлэхийн дугаар',
  'payment.qpayInvoiceId': 'QPay нэхэмжлэхийн дугаар',
  'payment.createdAt': 'Үүсгэсэн',

  'payment.paidTitle': 'Төлбөр төлөгдлөө',
  'payment.paidAt': 'Төлсөн: {time}',
  'payment.paidBody': 'Баярлалаа. Таны захиалгыг гүйцэтгэж байна.',
  'payment.cancelledTitle': 'Энэ нэхэмжлэх цуцлагдсан',
  'payment.cancelledBody': 'Үүнийг төлөх боломжгүй. Худалдагчаас шинэ төлбөрийн холбоос авна уу.',
  'payment.waiting': 'Төлбөрийг хүлээж байна: хуудас өөрөө шинэчлэгдэнэ.',

  'payment.banksTitle': 'Банкны аппаараа төлөх',
  'payment.banksHelp': 'Энэ утсан дээр банкаа дарж аппыг нь нээнэ үү.',
  'payment.payWith': '{bank}-аар төлөх',

  'payment.status.pending': 'Хүлээгдэж буй',
  'payment.status.paid': 'Төлөгдсөн',
  'payment.status.cancelled': 'Цуцлагдсан',
  'payment.status.failed': 'Амжилтгүй',
  'payment.status.success': 'Амжилттай',
};
