import type { Translation } from '../../i18n/catalogue-type';

export const en = {
  'config.title': 'Configuration',
  'config.subtitle': 'Which integrations are configured, and which run against a local simulator.',
  'config.configured': 'Configured',
  'config.notConfigured': 'Not configured',
  'config.simulated': 'Simulator',
  'config.simulatedHint': 'Runs against a local simulator, not the real service',
  'config.loading': 'Loading configuration status...',
  'config.error': 'Could not load the configuration status',
  'config.empty': 'No configuration items reported',
} as const;

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
};
