/** Bank and wallet apps QPay lists in urls[]; description is the Mongolian name, as live answers carry. */
const apps = [
  { name: 'qPay wallet', description: 'qPay хэтэвч', scheme: 'qpaywallet', logo: 'https://s3.qpay.mn/p/qpay-wallet.png' },
  { name: 'Khan bank', description: 'Хаан банк', scheme: 'khanbank', logo: 'https://qpay.mn/q/logo/khanbank.png' },
  { name: 'State bank', description: 'Төрийн банк', scheme: 'statebank', logo: 'https://qpay.mn/q/logo/statebank.png' },
  { name: 'Xac bank', description: 'Хас банк', scheme: 'xacbank', logo: 'https://qpay.mn/q/logo/xacbank.png' },
  { name: 'Trade and Development bank', description: 'Худалдаа хөгжлийн банк', scheme: 'tdbbank', logo: 'https://qpay.mn/q/logo/tdbbank.png' },
  { name: 'Social Pay', description: 'Голомт банк', scheme: 'socialpay-payment', logo: 'https://qpay.mn/q/logo/socialpay.png' },
  { name: 'Most money', description: 'МОСТ мони', scheme: 'most', logo: 'https://qpay.mn/q/logo/most.png' },
  { name: 'National investment bank', description: 'Үндэсний хөрөнгө оруулалтын банк', scheme: 'nibank', logo: 'https://qpay.mn/q/logo/nibank.jpeg' },
  { name: 'Chinggis khaan bank', description: 'Чингис хаан банк', scheme: 'ckbank', logo: 'https://qpay.mn/q/logo/ckbank.png' },
  { name: 'Capitron bank', description: 'Капитрон банк', scheme: 'capitronbank', logo: 'https://qpay.mn/q/logo/capitronbank.png' },
  { name: 'Bogd bank', description: 'Богд банк', scheme: 'bogdbank', logo: 'https://qpay.mn/q/logo/bogdbank.png' },
  { name: 'Trans bank', description: 'Тээвэр хөгжлийн банк', scheme: 'transbank', logo: 'https://qpay.mn/q/logo/transbank.png' },
  { name: 'M bank', description: 'М банк', scheme: 'mbank', logo: 'https://qpay.mn/q/logo/mbank.png' },
  { name: 'Ard App', description: 'Ард Апп', scheme: 'ard', logo: 'https://qpay.mn/q/logo/ardapp.png' },
  { name: 'Toki App', description: 'Токи Апп', scheme: 'toki', logo: 'https://qpay.mn/q/logo/toki.png' },
  { name: 'Monpay', description: '', scheme: 'Monpay', logo: 'https://qpay.mn/q/logo/monpay.png' },
];

/** Deep links `<scheme>://q?qPay_QRcode=<qr_text>`; the payload goes in unencoded, as QPay sends it. */
export function bankDeepLinks(qrText: string) {
  return apps.map(({ name, description, scheme, logo }) => ({ name, description, logo, link: `${scheme}://q?qPay_QRcode=${qrText}` }));
}

/** Banks a simulated payer pays from (code as in p2p_transactions). */
export const payerBanks = [
  { code: '050000', name: 'Хаан банк' },
  { code: '150000', name: 'Голомт банк' },
  { code: '040000', name: 'Худалдаа хөгжлийн банк' },
  { code: '320000', name: 'Хас банк' },
];
