import type { Translation } from '../../i18n/catalogue-type';

export const en = {
  'payment.pageTitle': 'Invoice payment',
  'payment.loading': 'Loading the invoice...',
  'payment.notFoundTitle': 'Invoice Not Found',
  'payment.notFoundBody': "The invoice you're looking for doesn't exist or has been removed.",
  'payment.loadError': 'Could not load the invoice',
  'payment.tryAgain': 'Try again',

  'payment.inAppTitle': "Open this page in your phone's browser",
  'payment.inAppBody': "Bank apps often do not open from inside Facebook, Messenger or Instagram. Copy the link and open it in Safari or Chrome, or choose Open in browser from this app's menu.",
  'payment.copyLink': 'Copy link',
  'payment.linkCopied': 'Link copied',
  'payment.linkCopiedBody': 'Paste it into Safari or Chrome.',
  'payment.copyFailed': 'Failed to copy to clipboard',

  'payment.customer': 'Customer',
  'payment.amount': 'Amount',
  'payment.scanQr': 'Scan the QR code with your bank app',
  'payment.qrAlt': 'QR code of invoice {invoiceId}',
  'payment.noQr': 'This invoice has no QR code.',
  'payment.invoiceId': 'Invoice ID',
  'payment.qpayInvoiceId': 'QPay invoice ID',
  'payment.createdAt': 'Created',

  'payment.paidTitle': 'Payment received',
  'payment.paidAt': 'Paid {time}',
  'payment.paidBody': 'Thank you. Your order is being completed.',
  'payment.cancelledTitle': 'This invoice was cancelled',
  'payment.cancelledBody': 'It can no longer be paid. Ask the seller for a new payment link.',
  'payment.waiting': 'Waiting for the payment: this page updates by itself.',

  'payment.banksTitle': 'Pay with your bank app',
  'payment.banksHelp': 'On this phone, tap your bank to open its app.',
  'payment.payWith': 'Pay with {bank}',

  'payment.status.pending': 'Pending',
  'payment.status.paid': 'Paid',
  'payment.status.cancelled': 'Cancelled',
  'payment.status.failed': 'Failed',
  'payment.status.success': 'Success',
} as const;

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
