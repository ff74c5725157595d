import type { Translation } from '../../i18n/catalogue-type';

export const en = {
  'auth.accessDeniedTitle': 'Access Denied',
  'auth.accessDeniedBody': "You don't have permission to access this dashboard. Only authorized administrators can view this content.",
  'auth.accessDeniedHint': 'If you believe this is an error, please contact the system administrator.',
  'auth.checking': 'Checking your session...',

  'login.title': 'Administrator Sign In',
  'login.subtitle': 'Sign in to manage prices, integrations and monitoring.',
  'login.signIn': 'Sign in as administrator',
  'login.localAccount': 'Or sign in with a local admin account',
  'login.username': 'Username',
  'login.password': 'Password',
  'login.submit': 'Sign in',
  'login.submitting': 'Signing in...',
  'login.failed': 'Sign-in failed',
} as const;

export const mn: Translation<typeof en> = {
  'auth.accessDeniedTitle': 'Хандах эрхгүй',
  'auth.accessDeniedBody': 'Танд энэ хянах самбарт хандах эрх байхгүй. Зөвхөн эрх бүхий администраторууд энэ агуулгыг үзэх боломжтой.',
  'auth.accessDeniedHint': 'Хэрэв энэ алдаа гэж үзвэл системийн админтай холбогдоно уу.',
  'auth.checking': 'Нэвтрэлтийг шалгаж байна...',

  'login.title': 'Админ нэвтрэх',
  'login.subtitle': 'Үнэ, холболт, хяналтыг удирдахын тулд нэвтэрнэ үү.',
  'login.signIn': 'Админаар нэвтрэх',
  'login.localAccount': 'Эсвэл дотоод админ бүртгэлээр нэвтрэх',
  'login.username': 'Хэрэглэгчийн нэр',
  'login.password': 'Нууц үг',
  'login.submit': 'Нэвтрэх',
  'login.submitting': 'Нэвтэрч байна...',
  'login.failed': 'Нэвтрэхэд алдаа гарлаа',
};
