import { blockedCodeTypes, codeTypes, type CodeType, type ParserMail } from '@bo/proto';
import { anchorsOf, visibleText } from './mail-text';

/**
 * The e-mail parser's default system prompt (document 2 §1: written in Mongolian), used while
 * no prompt is saved. It names the allowed types, the kinds never to return and the JSON answer
 * the parser reads; whatever the AI answers is checked again (operations/ai-answer.ts).
 */
export const DEFAULT_EMAIL_PARSER_PROMPT = `Та стриминг үйлчилгээний (Netflix, Disney+, Prime Video, Hulu, Max) имэйлээс нэг удаагийн нэвтрэх код эсвэл холбоосыг олж гаргадаг туслах юм. Хэрэглэгчийн мессеж аль төрлийг хайхыг, мөн хамгийн шинээс нь эхлэн хэдэн имэйлийг өгнө.

Зөвхөн дараах төрлүүдийг хайна:
- NFX_SIGN_IN_CODE: Netflix-д нэвтрэх 4 оронтой код.
- NFX_TEMPORARY_ACCESS_CODE: Netflix-ийн түр хандалтын ("Get Code", аялж байхдаа үзэх) холбоос.
- NFX_UPDATE_HOUSEHOLD: Netflix-ийн өрх (Household) шинэчлэх "Yes, This Was Me" / "Update Netflix Household" холбоос.
- NFX_TV_SIGN_IN_LINK: Netflix-д ТВ-ээр нэвтрэх хүсэлтийг зөвшөөрөх болон татгалзах холбоосууд.
- DP_OTP: Disney+-ийн 6 оронтой нэг удаагийн код.
- AMZ_OTP: Amazon Prime Video-ийн 6 оронтой нэг удаагийн нууц үг.
- HLU_OTP: Hulu-ийн 6 оронтой нэг удаагийн код.
- MAX_OTP: Max-ийн 6 оронтой нэг удаагийн код.

Дараах төрлийн имэйлээс код, холбоосыг ХЭЗЭЭ Ч бүү буцаа, учир нь эдгээр нь бүртгэлийн эзэмшлийг өөрчлөхөд ашиглагддаг:
- PASSWORD_RESET: нууц үг сэргээх, солих имэйл, түүний код эсвэл холбоос.
- SECURITY_VERIFICATION_CODE: бүртгэлийн аюулгүй байдлын баталгаажуулалтын код ("verify it's you", бүртгэлийн мэдээлэл өөрчлөхийг баталгаажуулах гэх мэт).
- EMAIL_CHANGE_VERIFICATION: имэйл хаяг солих, шинэ имэйл хаягийг баталгаажуулах код эсвэл холбоос.
Ийм имэйл олдвол found-ийг false болгож, blocked_type-д тухайн төрлийг бичээд, код, холбоосыг хоосон үлдээ.

Дүрэм:
- Зөвхөн имэйлд үнэхээр байгаа код, холбоосыг буцаа. Хэзээ ч бүү зохио.
- Кодыг имэйлд байгаагаар нь, зай болон бусад тэмдэгтгүйгээр бич.
- Холбоос нь тухайн үйлчилгээний өөрийн домэйн дээрх https холбоос байх ёстой.
- Хэд хэдэн имэйл байвал асуусан төрлийн хамгийн шинэ имэйлийг ашигла.
- Асуусан төрөл олдохгүй бол found-ийг false болго.

Хариултаа зөвхөн нэг JSON объектоор, өөр ямар ч тайлбаргүйгээр өг:
{"found": true эсвэл false, "type": "асуусан төрөл эсвэл null", "code": "код эсвэл null", "links": ["холбоос", ...], "blocked_type": "${blockedCodeTypes.join(' | ')} эсвэл null"}`;

/** How much of each mail's text the AI sees: codes sit near the top, and a long mail only costs time. */
const MAIL_TEXT_LIMIT = 6000;

function describeMail(mail: ParserMail, index: number): string {
  const links = anchorsOf(mail).map((anchor) => `- ${anchor.caption ? `${anchor.caption}: ` : ''}${anchor.url}`);
  return [
    `### Mail ${index + 1}${index === 0 ? ' (newest)' : ''}`,
    `From: ${mail.from || '(not given)'}`,
    `Subject: ${mail.subject || '(none)'}`,
    `Date: ${mail.date}`,
    'Text:',
    visibleText(mail).slice(0, MAIL_TEXT_LIMIT),
    ...(links.length > 0 ? ['Links:', ...links] : []),
  ].join('\n');
}

/** The user message: which type is wanted, the mails (newest first), and the JSON answer asked for. */
export function parserUserMessage(codeType: CodeType, mails: ParserMail[]): string {
  return [
    `Find the ${codeType} (${codeTypes[codeType].label}) in the e-mails below, newest first.`,
    'Answer with one JSON object only: {"found": boolean, "type": string|null, "code": string|null, "links": string[], "blocked_type": string|null}.',
    '',
    ...mails.map(describeMail),
  ].join('\n\n');
}
