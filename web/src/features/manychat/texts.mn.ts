import type { Translation } from '../../i18n/catalogue-type';
import type { en } from './texts.en';

export const mn: Translation<typeof en> = {
  'manychat.title': 'ManyChat webhook симулятор',
  'manychat.subtitle': 'Захиалагчийн адил чатлаарай: мессеж бүр POST /api/manychat/webhook руу очиж, ботын хариу энд гарна.',
  'manychat.botName': 'ManyChat бот',
  'manychat.subscriber': '{name} нэрээр бичиж байна (захиалагч {id})',
  'manychat.conversation': 'Харилцан яриа',
  'manychat.sample.greeting': 'Сайн байна уу! Би дэлгүүрийн чат бот. Бүтээгдэхүүний үнийг надаас асуугаарай.',
  'manychat.sample.hint': '“how much is Netflix 1 month” эсвэл “netflix үнэ хэд вэ” гэж бичээд үзээрэй.',
  'manychat.typing': 'Бот бичиж байна…',
  'manychat.message': 'Мессеж',
  'manychat.placeholder': 'Мессеж бичих...',
  'manychat.send': 'Илгээх',
  'manychat.noResponse': 'Хариу ирсэнгүй',
  'manychat.failedReply': 'Уучлаарай, таны хүсэлтийг боловсруулж чадсангүй. Дахин оролдоно уу.',
  'manychat.failedToast': 'Webhook руу мессеж илгээж чадсангүй',
};
