import * as aiParser from '../features/ai-parser/texts';
import * as auth from '../features/auth/texts';
import * as config from '../features/config/texts';
import * as customer from '../features/customer/texts';
import * as docs from '../features/docs/texts';
import * as manychatAdmin from '../features/manychat-admin/texts';
import * as overview from '../features/overview/texts';
import * as payment from '../features/payment/texts';
import * as qpay from '../features/qpay/texts';
import * as sheets from '../features/sheets/texts';
import * as streamingKeys from '../features/streaming-keys/texts';
import * as woocommerce from '../features/woocommerce/texts';
import * as common from './common-texts';

/** Each feature keeps its texts beside its code; the app's catalogue is their union, per language. */
export const en = { ...common.en, ...auth.en, ...overview.en, ...sheets.en, ...config.en, ...docs.en, ...woocommerce.en, ...qpay.en, ...payment.en, ...streamingKeys.en, ...manychatAdmin.en, ...customer.en, ...aiParser.en };
export const mn: Record<keyof typeof en, string> = { ...common.mn, ...auth.mn, ...overview.mn, ...sheets.mn, ...config.mn, ...docs.mn, ...woocommerce.mn, ...qpay.mn, ...payment.mn, ...streamingKeys.mn, ...manychatAdmin.mn, ...customer.mn, ...aiParser.mn };

export const languages = ['en', 'mn'] as const;
export type Language = (typeof languages)[number];
export const catalogues: Record<Language, Record<keyof typeof en, string>> = { en, mn };

/** Keys as components pass them: plural forms ('x_one', 'x_other') are asked for by their base key 'x'. */
type PluralBase<Key> = Key extends `${infer Base}_${'one' | 'other'}` ? Base : Key;
export type MessageKey = PluralBase<keyof typeof en>;
