import { CODE_MAIL_WINDOW_MINUTES, codeTypes, streamingServiceOf, type BlockedCodeType, type CodeType, type ParseOutcome } from '@bo/proto';

/**
 * Why a parse ended as it did, in English (`reason`, helper text for the admin and the page) and in
 * Mongolian (`message_mn`, what customers read first). 'No code found', 'No links found' and
 * 'No recent emails found' are the product's texts (document 3 §2) and open their reasons.
 */

interface Texts {
  reason: string;
  message_mn: string;
}

/** What was found, per type: the English names the type's label, the Mongolian says the same. */
const FOUND: Record<CodeType, Texts> = {
  NFX_SIGN_IN_CODE: { reason: 'Sign-in code found', message_mn: 'Нэвтрэх код олдлоо' },
  NFX_TEMPORARY_ACCESS_CODE: {
    reason: 'Temporary access link found: open it to see the code',
    message_mn: 'Түр нэвтрэх эрхийн холбоос олдлоо. Холбоосыг нээж кодоо харна уу.',
  },
  NFX_UPDATE_HOUSEHOLD: {
    reason: 'Household update link found: open it on the device to watch on',
    message_mn: 'Netflix Household шинэчлэх холбоос олдлоо. Үзэх төхөөрөмж дээрээ холбоосыг нээнэ үү.',
  },
  NFX_TV_SIGN_IN_LINK: {
    reason: 'TV sign-in links found: approve only the TV in front of you',
    message_mn: 'ТВ-ээр нэвтрэх холбоос олдлоо. Зөвхөн таны өмнө байгаа ТВ-ийн хүсэлтийг зөвшөөрнө үү.',
  },
  DP_OTP: { reason: 'Disney+ one-time passcode found', message_mn: 'Disney+ үйлчилгээний нэг удаагийн код олдлоо' },
  AMZ_OTP: { reason: 'Prime Video one-time password found', message_mn: 'Prime Video үйлчилгээний нэг удаагийн код олдлоо' },
  HLU_OTP: { reason: 'Hulu one-time passcode found', message_mn: 'Hulu үйлчилгээний нэг удаагийн код олдлоо' },
  MAX_OTP: { reason: 'Max one-time code found', message_mn: 'Max үйлчилгээний нэг удаагийн код олдлоо' },
};

/** Each blocked kind: what it is and why it is never shown, even to the account's own customers. */
const BLOCKED: Record<BlockedCodeType, Texts> = {
  PASSWORD_RESET: {
    reason: 'Password reset e-mails are never shared. Contact the shop if the password needs changing.',
    message_mn: 'Нууц үг сэргээх имэйлийг хэзээ ч хуваалцдаггүй. Нууц үг солих шаардлагатай бол дэлгүүртэй холбогдоно уу.',
  },
  SECURITY_VERIFICATION_CODE: {
    reason: 'Account-security verification codes are never shared: they let anyone change the shared account. Contact the shop.',
    message_mn: 'Бүртгэлийн аюулгүй байдлын баталгаажуулах кодыг хэзээ ч хуваалцдаггүй, учир нь түүгээр хуваалцсан бүртгэлийн тохиргоог өөрчилж болно. Дэлгүүртэй холбогдоно уу.',
  },
  EMAIL_CHANGE_VERIFICATION: {
    reason: 'E-mail change verifications are never shared: they would move the shared account to another e-mail. Contact the shop.',
    message_mn: 'Имэйл хаяг солих баталгаажуулалтыг хэзээ ч хуваалцдаггүй, учир нь түүгээр хуваалцсан бүртгэлийг өөр имэйл рүү шилжүүлж болно. Дэлгүүртэй холбогдоно уу.',
  },
};

/** A blocked outcome whose kind is not known (it should always be): still refused, still said why. */
const BLOCKED_UNKNOWN: Texts = {
  reason: 'This e-mail is of a kind that is never shared. Contact the shop.',
  message_mn: 'Энэ төрлийн имэйлийг хэзээ ч хуваалцдаггүй. Дэлгүүртэй холбогдоно уу.',
};

export function describeOutcome(outcome: ParseOutcome, codeType: CodeType, blockedType: BlockedCodeType | null): Texts {
  const { service, yields } = codeTypes[codeType];
  const serviceName = streamingServiceOf(service).name;
  const asksCode = yields === 'code';
  switch (outcome) {
    case 'found':
      return FOUND[codeType];
    case 'blocked':
      return blockedType ? BLOCKED[blockedType] : BLOCKED_UNKNOWN;
    case 'not_found':
      return asksCode
        ? {
            reason: `No code found in the recent ${serviceName} e-mails. Request a new code and try again in a minute.`,
            message_mn: `Код олдсонгүй. Сүүлийн үед ирсэн ${serviceName} имэйлүүдэд код алга байна. Шинэ код хүсээд нэг минутын дараа дахин оролдоно уу.`,
          }
        : {
            reason: `No links found in the recent ${serviceName} e-mails. Request a new e-mail and try again in a minute.`,
            message_mn: `Холбоос олдсонгүй. Сүүлийн үед ирсэн ${serviceName} имэйлүүдэд холбоос алга байна. Шинэ имэйл хүсээд нэг минутын дараа дахин оролдоно уу.`,
          };
    case 'no_recent_emails':
      return {
        reason: `No recent emails found from ${serviceName} in the last ${CODE_MAIL_WINDOW_MINUTES} minutes. Request the ${asksCode ? 'code' : 'e-mail'} again and try in a minute.`,
        message_mn: `Сүүлийн үеийн имэйл олдсонгүй: сүүлийн ${CODE_MAIL_WINDOW_MINUTES} минутад ${serviceName} үйлчилгээнээс имэйл ирээгүй байна. ${asksCode ? 'Кодыг' : 'Имэйлийг'} дахин хүсээд нэг минутын дараа оролдоно уу.`,
      };
    case 'unavailable':
      return {
        reason: `The ${serviceName} e-mails could not be read right now. Try again in a minute.`,
        message_mn: `Одоогоор ${serviceName} имэйлийг уншиж чадсангүй. Нэг минутын дараа дахин оролдоно уу.`,
      };
  }
}
