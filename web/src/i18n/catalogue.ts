import * as aiAdminEn from '../features/ai-admin/texts.en';
import * as aiAdminMn from '../features/ai-admin/texts.mn';
import * as aiParserEn from '../features/ai-parser/texts.en';
import * as aiParserMn from '../features/ai-parser/texts.mn';
import * as apiToolsEn from '../features/api-tools/texts.en';
import * as apiToolsMn from '../features/api-tools/texts.mn';
import * as auditLogEn from '../features/audit-log/texts.en';
import * as auditLogMn from '../features/audit-log/texts.mn';
import * as authEn from '../features/auth/texts.en';
import * as authMn from '../features/auth/texts.mn';
import * as configEn from '../features/config/texts.en';
import * as configMn from '../features/config/texts.mn';
import * as configurationEn from '../features/configuration/texts.en';
import * as configurationMn from '../features/configuration/texts.mn';
import * as customerEn from '../features/customer/texts.en';
import * as customerMn from '../features/customer/texts.mn';
import * as docsEn from '../features/docs/texts.en';
import * as docsMn from '../features/docs/texts.mn';
import * as manychatEn from '../features/manychat/texts.en';
import * as manychatMn from '../features/manychat/texts.mn';
import * as manychatAdminEn from '../features/manychat-admin/texts.en';
import * as manychatAdminMn from '../features/manychat-admin/texts.mn';
import * as overviewEn from '../features/overview/texts.en';
import * as overviewMn from '../features/overview/texts.mn';
import * as paymentEn from '../features/payment/texts.en';
import * as paymentMn from '../features/payment/texts.mn';
import * as qpayEn from '../features/qpay/texts.en';
import * as qpayMn from '../features/qpay/texts.mn';
import * as runsEn from '../features/runs/texts.en';
import * as runsMn from '../features/runs/texts.mn';
import * as scraperAdminEn from '../features/scraper-admin/texts.en';
import * as scraperAdminMn from '../features/scraper-admin/texts.mn';
import * as sheetsEn from '../features/sheets/texts.en';
import * as sheetsMn from '../features/sheets/texts.mn';
import * as streamingKeysEn from '../features/streaming-keys/texts.en';
import * as streamingKeysMn from '../features/streaming-keys/texts.mn';
import * as woocommerceEn from '../features/woocommerce/texts.en';
import * as woocommerceMn from '../features/woocommerce/texts.mn';
import { languages, type Language } from './bundles';
import * as commonEn from './common-texts.en';
import * as commonMn from './common-texts.mn';

/**
 * The whole catalogue, for the compiler and the tests only: each feature keeps its texts beside its
 * code, one file per language, and the app fetches them in parts (bundles.ts), never this union.
 * The keys the components may ask for (MessageKey) are those of the English union.
 */
export const en = { ...commonEn.en, ...authEn.en, ...overviewEn.en, ...sheetsEn.en, ...manychatEn.en, ...configEn.en, ...configurationEn.en, ...docsEn.en, ...woocommerceEn.en, ...qpayEn.en, ...paymentEn.en, ...streamingKeysEn.en, ...manychatAdminEn.en, ...customerEn.en, ...aiParserEn.en, ...aiAdminEn.en, ...runsEn.en, ...auditLogEn.en, ...scraperAdminEn.en, ...apiToolsEn.en };
export const mn: Record<keyof typeof en, string> = { ...commonMn.mn, ...authMn.mn, ...overviewMn.mn, ...sheetsMn.mn, ...manychatMn.mn, ...configMn.mn, ...configurationMn.mn, ...docsMn.mn, ...woocommerceMn.mn, ...qpayMn.mn, ...paymentMn.mn, ...streamingKeysMn.mn, ...manychatAdminMn.mn, ...customerMn.mn, ...aiParserMn.mn, ...aiAdminMn.mn, ...runsMn.mn, ...auditLogMn.mn, ...scraperAdminMn.mn, ...apiToolsMn.mn };

export { languages, type Language };
export const catalogues: Record<Language, Record<keyof typeof en, string>> = { en, mn };

/** Keys as components pass them: plural forms ('x_one', 'x_other') are asked for by their base key 'x'. */
type PluralBase<Key> = Key extends `${infer Base}_${'one' | 'other'}` ? Base : Key;
export type MessageKey = PluralBase<keyof typeof en>;
