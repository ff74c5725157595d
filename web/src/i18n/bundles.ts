export const languages = ['en', 'mn'] as const;
export type Language = (typeof languages)[number];

type Texts = Readonly<Record<string, string>>;
type Loader = () => Promise<Texts>;

function part(en: () => Promise<{ en: Texts }>, mn: () => Promise<{ mn: Texts }>): Record<Language, Loader> {
  return { en: () => en().then((module) => module.en), mn: () => mn().then((module) => module.mn) };
}

/**
 * The catalogue in parts, each language of each part its own chunk: a screen fetches the parts its
 * code uses, in the language in use only (the lazy pages name theirs: lib/lazy-page.tsx; the
 * bundles test checks that each names every part its code uses). catalogue.ts holds their union.
 */
export const textBundles = {
  shell: part(() => import('./shell-texts.en'), () => import('./shell-texts.mn')),
  sheets: part(() => import('../features/sheets/texts.en'), () => import('../features/sheets/texts.mn')),
  manychat: part(() => import('../features/manychat/texts.en'), () => import('../features/manychat/texts.mn')),
  config: part(() => import('../features/config/texts.en'), () => import('../features/config/texts.mn')),
  configuration: part(() => import('../features/configuration/texts.en'), () => import('../features/configuration/texts.mn')),
  runs: part(() => import('../features/runs/texts.en'), () => import('../features/runs/texts.mn')),
  auditLog: part(() => import('../features/audit-log/texts.en'), () => import('../features/audit-log/texts.mn')),
  docs: part(() => import('../features/docs/texts.en'), () => import('../features/docs/texts.mn')),
  apiTools: part(() => import('../features/api-tools/texts.en'), () => import('../features/api-tools/texts.mn')),
  woocommerce: part(() => import('../features/woocommerce/texts.en'), () => import('../features/woocommerce/texts.mn')),
  qpay: part(() => import('../features/qpay/texts.en'), () => import('../features/qpay/texts.mn')),
  payment: part(() => import('../features/payment/texts.en'), () => import('../features/payment/texts.mn')),
  streamingKeys: part(() => import('../features/streaming-keys/texts.en'), () => import('../features/streaming-keys/texts.mn')),
  manychatAdmin: part(() => import('../features/manychat-admin/texts.en'), () => import('../features/manychat-admin/texts.mn')),
  customer: part(() => import('../features/customer/texts.en'), () => import('../features/customer/texts.mn')),
  aiParser: part(() => import('../features/ai-parser/texts.en'), () => import('../features/ai-parser/texts.mn')),
  aiAdmin: part(() => import('../features/ai-admin/texts.en'), () => import('../features/ai-admin/texts.mn')),
  scraperAdmin: part(() => import('../features/scraper-admin/texts.en'), () => import('../features/scraper-admin/texts.mn')),
} satisfies Record<string, Record<Language, Loader>>;

export type TextBundle = keyof typeof textBundles;

/** What the shell, sign-in, Access Denied, the not-found page and the overview show: fetched before the first render. */
export const shellBundles: readonly TextBundle[] = ['shell'];
