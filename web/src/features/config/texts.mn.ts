import type { Translation } from '../../i18n/catalogue-type';
import type { en } from './texts.en';

export const mn: Translation<typeof en> = {
  'config.title': 'Тохиргоо',
  'config.subtitle': 'Аль холболтууд тохируулагдсан, аль нь дотоод симулятор дээр ажиллаж байгааг харуулна.',
  'config.configured': 'Тохируулсан',
  'config.notConfigured': 'Тохируулаагүй',
  'config.simulated': 'Симулятор',
  'config.simulatedHint': 'Жинхэнэ үйлчилгээ биш, дотоод симулятор дээр ажиллаж байна',
  'config.loading': 'Тохиргооны төлөвийг ачаалж байна...',
  'config.error': 'Тохиргооны төлөвийг ачаалж чадсангүй',
  'config.empty': 'Тохиргооны мэдээлэл ирээгүй',
  'config.openHub': 'Вэбхүүкийн нууц ба өгөгдлийн түлхүүр',
};
