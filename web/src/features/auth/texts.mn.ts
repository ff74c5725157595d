import type { Translation } from '../../i18n/catalogue-type';
import type { en } from './texts.en';

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
