/**
 * Facebook, Messenger and Instagram open links in their own browser, where bank apps' links and
 * downloads often fail: such a user agent names FBAN, FBAV, FB_IAB, Messenger or Instagram.
 */
const IN_APP_MARKERS = /FBAN|FBAV|FB_IAB|Messenger|Instagram/i;

export const isInAppBrowser = (userAgent: string): boolean => IN_APP_MARKERS.test(userAgent);
