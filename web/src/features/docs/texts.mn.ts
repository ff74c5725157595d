import type { Translation } from '../../i18n/catalogue-type';
import type { en } from './texts.en';

export const mn: Translation<typeof en> = {
  'docs.title': 'Баримт бичиг',
  'docs.subtitle': 'Түргэн эхлэл: шинэ суулгацаас чатаар үнэ хариулах хүртэл.',
  'docs.stepsTitle': 'Тохируулах алхмууд',
  'docs.step1.title': '1. Системийг асаах',
  'docs.step1.body': 'make start командыг ажиллуулна. Үйлчилгээ бүр дотоод симуляторуудтай асах ба Тохиргоо хэсэгт аль холболт жинхэнэ, аль нь симулятор болохыг харуулна.',
  'docs.step2.title': '2. Үнийн хүснэгтийг холбох',
  'docs.step2.body': 'GOOGLE_SHEETS_SPREADSHEET_ID болон GOOGLE_SERVICE_ACCOUNT_JSON-г тохируулаад хүснэгтээ service account-тай хуваалцана. Үнэ Google Sheets хэсэгт гарч ирнэ; тэнд мөрийг засаж хүснэгтэд буцааж бичнэ.',
  'docs.step3.title': '3. Чат платформыг холбох',
  'docs.step3.body': 'ManyChat дээр POST /api/manychat/webhook руу text, user_id, first_name илгээх External Request нэмнэ. Хариу нь Dynamic Block v2 мессеж байна.',
  'docs.step4.title': '4. Дэлгүүр болон төлбөрийг холбох',
  'docs.step4.body': 'WooCommerce-ийн URL, consumer key, consumer secret болон QPay-ийн нэвтрэх мэдээллийг нэмнэ. Дараа нь WooCommerce хуудаснаас бүтээгдэхүүнээ холбож үнээ синк хийнэ.',
  'docs.resourcesTitle': 'Нэмэлт материал',
  'docs.webhookUrl': 'Webhook хаяг',
  'docs.link.sheets': 'Google Sheets API',
  'docs.link.manychat': 'ManyChat Dynamic Block',
  'docs.link.woocommerce': 'WooCommerce REST API',
  'docs.link.qpay': 'QPay хөгжүүлэгчийн баримт бичиг',
};
