import { codeTypes, hostIsWithin, senderAllowed, serviceMailDomains, type BlockedCodeType, type CodeType, type ParserMail, type ServiceCode } from '@bo/proto';
import { anchorsOf, htmlOf, htmlToText, visibleText } from './mail-text';

/**
 * The parser's first pass (ADR 15): expressions that recognise the services' mails by their wording
 * and read the code or links out of them. The services' real mails vary (subject lines, languages,
 * code on its own line or inline, HTML-only), so each kind is recognised by several phrasings,
 * and a code or link is taken only from a mail recognised as that kind and that service.
 */

export interface Extraction {
  code: string | null;
  links: string[];
  buttons: { caption: string; url: string }[];
  approvalLinks: string[];
  denialLinks: string[];
}

type Anchor = { caption: string; url: string };

interface MailView {
  /** The subject, when there is one (a pasted mail has none). */
  subjects: string[];
  /** Each readable text of the mail (the text body, the HTML's text when it differs), as trimmed non-empty lines. */
  texts: string[][];
  sentences: string[];
  anchors: Anchor[];
}

/** Typographic apostrophes and dashes written plainly, so one expression reads both. */
const plain = (s: string) => s.replace(/[‘’ʼ´`]/g, "'").replace(/[‐‑‒–—]/g, '-');
const linesOf = (text: string) => plain(text).split('\n').map((line) => line.trim()).filter(Boolean);

function viewOf(mail: ParserMail): MailView {
  const texts = [visibleText(mail)];
  const html = htmlOf(mail);
  // A text body can be a stub ("view this mail in a browser") next to the HTML that says it all.
  if (html) {
    const htmlText = htmlToText(html);
    if (htmlText !== texts[0]) texts.push(htmlText);
  }
  const lines = texts.map(linesOf);
  return {
    subjects: [plain(mail.subject).replace(/\s+/g, ' ').trim()].filter(Boolean),
    texts: lines,
    sentences: lines.flat().flatMap((line) => line.split(/(?<=[.!?;])\s+/)),
    anchors: anchorsOf(mail),
  };
}

const anyMatch = (patterns: RegExp[], s: string) => patterns.some((pattern) => pattern.test(s));

// ---------------------------------------------------------------------------------------------
// Blocked kinds

/**
 * What a password-reset, e-mail-change or account-security mail is about. Allowed mails mention
 * passwords and security too, but as advice ("If you did not request this, change your
 * password"), which ADVICE recognises; the mail's own purpose is said plainly.
 */
const BLOCKED_WORDING: [BlockedCodeType, RegExp[]][] = [
  [
    'PASSWORD_RESET',
    [
      /\b(reset|resetting|recover|recovering|restore)\b[^.\n]{0,25}\bpassword\b/i,
      /\bpassword\b[^.\n]{0,15}\b(reset|recovery|assistance)\b/i,
      /\bforg[eo]t(ten)?\b[^.\n]{0,15}\bpassword\b/i,
      /\b(choose|create|set|enter|pick|change|update)\b (a |your |the )?new password\b/i,
      /\b(code|link)\b[^.\n]{0,25}\b(change|update)\b (your |the )?password\b/i,
      /\b(restablec|recuper|cambi)\w*\b[^.\n]{0,20}\bcontraseña/i,
      /\b(redefin|recuper|alter)\w*\b[^.\n]{0,20}\bsenha\b/i,
      /\b(réinitialis|rénitialis|modifi)\w*\b[^.\n]{0,20}\bmot de passe\b/i,
      /\bpasswort\b[^.\n]{0,20}\bzurück(zu)?setzen\b/i,
    ],
  ],
  [
    'EMAIL_CHANGE_VERIFICATION',
    [
      /\b(verify|confirm|validate|activate)\b[^.\n]{0,20}\bnew\b[^.\n]{0,15}\b(e-?mail|address)\b/i,
      // "change the e-mail address", but not "update your e-mail preferences".
      /\b(change|changing|update|updating)\s+(?:(?:the|your|of|account|login|sign-in)\s+){0,3}e-?mail\b(?!\s*(?:preferences|settings|notifications|subscriptions|communications|frequency))/i,
      /\be-?mail( address)? (change|update)\b/i,
      /\b(verifi|confirm)\w*\b[^.\n]{0,20}\b(nuevo|novo) (correo|e-?mail)/i,
      /\b(cambiar|cambio|cambiaste|alterar|alteração|mudar|mudança)\b[^.\n]{0,15}\b(correo|e-?mail)\b/i,
      /\bnouvelle adresse e-?mail\b|\bchangement d'adresse e-?mail\b/i,
      /\bneue\w* e-?mail-?adresse\b|\be-?mail-?adresse\b[^.\n]{0,20}\bändern\b/i,
    ],
  ],
  [
    'SECURITY_VERIFICATION_CODE',
    [
      /\b(verify|confirm)\b[^.\n]{0,12}\b(it's|it is)\b[^.\n]{0,8}\byou\b/i,
      /\baccount security\b/i,
      /\bsecurity (settings?|verification|check|challenge|alert|notice|questions?)\b/i,
      /\b(unusual|suspicious) (activity|sign-?in|log-?in|attempt)/i,
      /\bbefore\b[^.\n]{0,20}\b(make|makes|making|save|complete|confirm)\b[^.\n]{0,15}\b(change|changes|update)\b/i,
      /\bverific\w* que eres tú|\bseguridad de (la |tu )?cuenta\b|\bactividad (inusual|sospechosa)/i,
      /\bconfirm\w* que é você|\bsegurança da (sua )?conta\b|\batividade (incomum|suspeita)/i,
      /\bqu'il s'agit (bien )?de vous|\bsécurité (de votre|du) compte\b|\bactivité (inhabituelle|suspecte)/i,
      /\bkontosicherheit\b|\bdass (du|sie) es (bist|sind)\b|\bungewöhnliche aktivität/i,
    ],
  ],
];

/** A conditional or a warning: "If this wasn't you…", "Never share this code…", "Si no solicitaste…". */
const ADVICE = /\b(if|unless|whether|never|not|si|wenn|falls|caso|nunca|jamais|niemals|nicht|não)\b|n't\b|\bse (você|voce)\b|\bne\b[^.\n]{0,40}\bpas\b/i;

const LINK_KINDS: [BlockedCodeType, RegExp][] = [
  ['PASSWORD_RESET', /\/password\b|\/loginhelp|(reset|forgot|change|set)[-_]?pass|pass(word)?[-_]?(reset|recovery|assistance)|\/ap\/fpw|lkid=url_password/],
  ['EMAIL_CHANGE_VERIFICATION', /verify[-_]?e-?mail|e-?mail[-_]?(verif|change|update|confirm)|(confirm|change|update)[-_]?e-?mail/],
  ['SECURITY_VERIFICATION_CODE', /verify[-_]?(identity|its-?you|account)|security[-_]?(check|verif|challenge)/],
];

/** The blocked kind a link leads to, by its path and query (a password-reset page, an e-mail verification…). */
export function blockedLinkKind(url: string): BlockedCodeType | null {
  let target = url;
  try {
    const parsed = new URL(url);
    target = `${parsed.pathname}${parsed.search}`;
  } catch {
    // Not a URL the browser would open: judge the text as written.
  }
  try {
    target = decodeURIComponent(target);
  } catch {
    // A stray % leaves the text as it is.
  }
  target = target.toLowerCase();
  return LINK_KINDS.find(([, pattern]) => pattern.test(target))?.[0] ?? null;
}

/** A link is the mail's action unless its caption only appears in advice ("If this wasn't you, reset your password"). */
function linkIsAction(view: MailView, anchor: Anchor): boolean {
  const caption = plain(anchor.caption).toLowerCase();
  if (!caption) return true;
  const holding = view.sentences.filter((sentence) => sentence.toLowerCase().includes(caption));
  return holding.length === 0 || holding.some((sentence) => !ADVICE.test(sentence));
}

/**
 * The blocked kind of a mail, or null. It decides before any extraction: a blocked mail is refused
 * even when it holds a code or a link. The subject is read whole; the text sentence by sentence,
 * leaving out advice; the links by where they lead.
 */
export function classifyBlocked(mail: ParserMail): BlockedCodeType | null {
  const view = viewOf(mail);
  for (const subject of view.subjects) {
    const kind = BLOCKED_WORDING.find(([, patterns]) => anyMatch(patterns, subject));
    if (kind) return kind[0];
  }
  const statements = view.sentences.filter((sentence) => !ADVICE.test(sentence));
  for (const [kind, patterns] of BLOCKED_WORDING) {
    if (statements.some((sentence) => anyMatch(patterns, sentence))) return kind;
  }
  for (const anchor of view.anchors) {
    const kind = blockedLinkKind(anchor.url);
    if (kind && linkIsAction(view, anchor)) return kind;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Senders, services and links

// Shared with streaming-keys' mailbox read: one rule for which senders count.
export { senderAllowed };

export function isAllowedLink(url: string, service: ServiceCode): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password) return false;
  return serviceMailDomains[service].linkDomains.some((domain) => hostIsWithin(parsed.hostname, domain));
}

/** How each service names itself; "Max" only capitalised, since "max" is an ordinary word. */
const BRANDS: [ServiceCode, RegExp][] = [
  ['NFX', /netflix/gi],
  ['DPS', /disney\s*(\+|plus)|disneyplus|\bmydisney\b/gi],
  ['AMZ', /\bamazon\b|prime\s*video|primevideo/gi],
  ['HLU', /\bhulu/gi],
  ['MAX', /\bhbo|\b(Max|MAX)\b|max\.com/g],
];

/**
 * The service a mail without a sender speaks for: the brand named most (the subject counts three
 * times), 'mixed' when two are named equally (a Hulu mail may advertise the Disney+ bundle).
 */
function brandOf(view: MailView): ServiceCode | null | 'mixed' {
  const body = view.texts.flat().join('\n');
  const scores = BRANDS.map(([service, pattern]) => ({
    service,
    score: 3 * view.subjects.reduce((n, subject) => n + (subject.match(pattern)?.length ?? 0), 0) + (body.match(pattern)?.length ?? 0),
  })).sort((a, b) => b.score - a.score);
  if (scores[0].score === 0) return null;
  return scores[0].score === scores[1].score ? 'mixed' : scores[0].service;
}

/** The sender decides when there is one; a pasted mail has none, so its wording does (a mail naming no service fits any). */
function isOfService(mail: ParserMail, view: MailView, service: ServiceCode): boolean {
  if (mail.from.trim()) return senderAllowed(mail.from, service);
  const brand = brandOf(view);
  return brand === null || brand === service;
}

// ---------------------------------------------------------------------------------------------
// Codes

const SIGN_IN_CODE_WORDING = [
  /\bsign[- ]?in code\b/i,
  /\bcode to sign[- ]?in\b/i,
  /\b(log[- ]?in|login) code\b/i,
  /\bcode to log[- ]?in\b/i,
  /\benter (this|the following|the) code\b/i,
  /\bc[oó]digo (de|para) (inicio de sesi[oó]n|iniciar sesi[oó]n|acceso|acesso|entrar|login)\b/i,
  /\bcode (de connexion|d'identification|pour (vous )?(connecter|identifier))\b/i,
  /\banmeldecode\b|\bcode\b[^.\n]{0,30}\banzumelden\b/i,
];

const OTP_WORDING = [
  /\bone[- ]?time (pass)?code\b/i,
  /\bone[- ]?time password\b/i,
  /\botp\b/i,
  /\bpasscode\b/i,
  /\bverification code\b/i,
  /\b(sign[- ]?in|log[- ]?in|login|access|security) code\b/i,
  /\b(enter|use|here's|here is) (this|the following|your|the) ([\w-]+ )?code\b/i,
  /\byour ([\w-]+ )?code( is|:)/i,
  /\bcode to (sign|log)/i,
  /\bc[oó]digo\b/i,
  /\bcode (à usage unique|unique|de vérification|de connexion)\b/i,
  /\b(einmal|bestätigungs|verifizierungs|sicherheits|anmelde)-?code\b/i,
];

/** The code types' lengths (document 3 §3: Netflix sign-in codes are 4 digits, the one-time codes 6). */
const CODE_DIGITS: Partial<Record<CodeType, number>> = { NFX_SIGN_IN_CODE: 4, DP_OTP: 6, AMZ_OTP: 6, HLU_OTP: 6, MAX_OTP: 6 };

/** "code: 1234", "passcode is 123456", "One Time Password (OTP): 123456"; not "code expires in 15 minutes". */
const inlineCode = (digits: number) =>
  new RegExp(String.raw`\b(?:code|passcode|password|otp|pin|c[oó]digo|senha|mot de passe)\b\)?\s*(?:is|:|-|=|es|est|ist|é|lautet)?\s*:?\s*(\d{${digits}})(?!\d)(?![.,:/-]\d)`, 'i');
/** "123456 is your Hulu passcode". */
const codeFirst = (digits: number) => new RegExp(String.raw`(?<![\d.,/:$€£#+-])\b(\d{${digits}})\s+(?:is|es|est|ist|é)\s+(?:your|tu|su|votre|dein|ihr|seu|o seu)\b`, 'i');

/** A line that is only the code, also written "1 2 3 4" (one table cell per digit) or "123 456"/"123-456". */
function lineCode(line: string, digits: number): string | null {
  const spaced = new RegExp(String.raw`^\d(?: ?\d){${digits - 1}}$`);
  if (spaced.test(line)) return line.replace(/ /g, '');
  if (digits === 6 && /^\d{3}[- ]\d{3}$/.test(line)) return line.replace(/\D/g, '');
  return null;
}

/** 19xx/20xx: a year, unless it stands right under the code wording. */
const looksLikeYear = (code: string) => /^(19|20)\d\d$/.test(code);
/** How many lines after its wording a code may stand ("Enter this code to sign in", a blank cell, the code). */
const CODE_REACH = 4;

/**
 * The code of one readable text. In order: a line holding only the code right under the wording
 * (how every service lays its code out), a code written inline after "code"/"passcode", a code line
 * right above its wording (a heading layout), and with the wording only in the subject, the first
 * code line. Phone numbers, prices, addresses and dates never stand alone on a line, nor after "code".
 */
function codeOfText(lines: string[], digits: number, wording: RegExp[], wordingInSubject: boolean): string | null {
  const isWording = lines.map((line) => anyMatch(wording, line));
  const codes = lines.map((line) => lineCode(line, digits));

  let lastWording = -Infinity;
  for (let i = 0; i < lines.length; i++) {
    if (isWording[i]) lastWording = i;
    else if (codes[i] && i - lastWording <= CODE_REACH) return codes[i];
  }

  const inline = inlineCode(digits);
  const first = codeFirst(digits);
  const afterWording = new RegExp(String.raw`^[\s:.-]*(\d{${digits}})(?!\d)(?![.,:/-]\d)`);
  for (const line of lines) {
    const found = inline.exec(line) ?? first.exec(line) ?? codeAfterWording(line, wording, afterWording);
    if (found) return found[1];
  }

  let above: string | null = null;
  let nextWording = Infinity;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (isWording[i]) nextWording = i;
    else if (codes[i] && !looksLikeYear(codes[i]!) && nextWording - i <= 2) above = codes[i];
  }
  if (above) return above;

  if (wordingInSubject && !isWording.includes(true)) return codes.find((code) => code && !looksLikeYear(code)) ?? null;
  return null;
}

/** A mail pasted as one line: "Enter this code to sign in: 4821 This code will expire…". */
function codeAfterWording(line: string, wording: RegExp[], afterWording: RegExp): RegExpExecArray | null {
  for (const pattern of wording) {
    const match = pattern.exec(line);
    const found = match && afterWording.exec(line.slice(match.index + match[0].length));
    if (found) return found;
  }
  return null;
}

function findCode(view: MailView, type: CodeType): string | null {
  const digits = CODE_DIGITS[type];
  const pattern = codeTypes[type].codePattern;
  if (!digits || !pattern) return null;
  const wording = type === 'NFX_SIGN_IN_CODE' ? SIGN_IN_CODE_WORDING : OTP_WORDING;
  const wordingInSubject = view.subjects.some((subject) => anyMatch(wording, subject));
  if (!wordingInSubject && !view.texts.some((lines) => lines.some((line) => anyMatch(wording, line)))) return null;
  const found = [
    ...view.subjects.map((subject) => (inlineCode(digits).exec(subject) ?? codeFirst(digits).exec(subject))?.[1] ?? null),
    ...view.texts.map((lines) => codeOfText(lines, digits, wording, wordingInSubject)),
  ];
  return found.find((code) => code !== null && pattern.test(code)) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Netflix links

const pathOf = (url: string) => {
  try {
    return new URL(url).pathname.toLowerCase();
  } catch {
    return '';
  }
};

interface LinkKind {
  /** The mail's wording for this kind; one is needed before any link is taken. */
  wording: RegExp[];
  captions: RegExp[];
  path: RegExp;
  /** Netflix's own caption, for a link written without one. */
  defaultCaption: string;
}

const TEMPORARY_ACCESS: LinkKind = {
  wording: [/\btemporary (access|code)\b|\bacceso temporal\b|\bacesso tempor[aá]rio\b|\baccès temporaire\b|\bvorübergehende\w* zugang|\bzugangscode\b/i],
  captions: [/^(get|send|request|view)( the| my| your)? (temporary )?(access )?code$/i, /^(obtener|obtén|obter|receber|obtenir|recevoir)( el| o| le)? (c[oó]digo|code)$/i, /^code (anfordern|abrufen|erhalten|senden)$/i],
  path: /\/account\/travel\b|temporary-?access/,
  defaultCaption: 'Get Code',
};

const HOUSEHOLD: LinkKind = {
  wording: [/\bhousehold\b|\bprimary location\b|\bhogar\b|\bresid[eê]ncia\b|\bfoyer\b|\bhaushalt\b/i],
  captions: [
    /^yes,? (this|it|that) (was|is) me!?$/i,
    /^update (the |your |my )?(netflix )?household$/i,
    /^confirm (the )?(update|household|request)$/i,
    /^s[ií],? (fui|era|soy|sou) (yo|eu)$/i,
    /^oui,? c'(é|e)tait moi$/i,
    /^ja,? (das )?(war|bin) ich/i,
    /^(actualizar|atualizar|mettre à jour|aktualisieren)\b/i,
  ],
  path: /update-primary-location|primary-location|\/household|update-household/,
  defaultCaption: 'Yes, This Was Me',
};

/** A sign-in waiting for approval, not one that happened ("A new device signed in" is a notice). */
const TV_WORDING = [
  /\b(trying|wants|asking|attempting|requested|request) to (sign|log)[- ]?in\b/i,
  /\b(sign|log)[- ]?in (request|attempt)\b/i,
  /\bapprove\b[^.\n]{0,40}\b(sign|log)[- ]?in\b/i,
  /\b(intenta|intentando) iniciar sesi[oó]n|\btentando (entrar|fazer login)|\bessaie de se connecter|\bversucht,? sich anzumelden/i,
];
/** A TV mail's button approves or denies: its caption says which, else its path. */
const APPROVE = { captions: [/^(approve|allow|accept|confirm|yes,? (this|it|that) (was|is) me|yes,? sign (me )?in|sign in|aprobar|aprovar|approuver|autoriser|genehmigen|zulassen|bestätigen)\b/i], path: /approve|\/allow|accept/ };
const DENY = { captions: [/^(deny|reject|decline|block|cancel|no\b|not me|(it|this) (wasn't|was not) me|rechazar|denegar|negar|recusar|refuser|bloquer|ablehnen|verweigern)/i], path: /deny|reject|decline|\/block/ };

function tvDecision(anchor: Anchor): 'approve' | 'deny' | null {
  const caption = plain(anchor.caption);
  if (anyMatch(DENY.captions, caption)) return 'deny';
  if (anyMatch(APPROVE.captions, caption)) return 'approve';
  const path = pathOf(anchor.url);
  if (DENY.path.test(path)) return 'deny';
  return APPROVE.path.test(path) ? 'approve' : null;
}

/** The links a customer may open: on the service's own https domains, never a blocked kind's page. */
const safeLinks = (view: MailView, service: ServiceCode) => view.anchors.filter((anchor) => isAllowedLink(anchor.url, service) && !blockedLinkKind(anchor.url));

const isOfKind = (anchor: Anchor, kind: LinkKind) => anyMatch(kind.captions, plain(anchor.caption)) || kind.path.test(pathOf(anchor.url));

const saysAny = (view: MailView, wording: RegExp[]) => view.subjects.some((s) => anyMatch(wording, s)) || view.texts.some((lines) => lines.some((line) => anyMatch(wording, line)));

const nothing: Extraction = { code: null, links: [], buttons: [], approvalLinks: [], denialLinks: [] };

/**
 * The code or links of `type` in the mail, or null when it is not a mail of that kind. Callers ask
 * classifyBlocked first; this only reads.
 */
export function extract(mail: ParserMail, type: CodeType): Extraction | null {
  const info = codeTypes[type];
  const view = viewOf(mail);
  if (!isOfService(mail, view, info.service)) return null;

  if (info.yields === 'code') {
    const code = findCode(view, type);
    return code ? { ...nothing, code } : null;
  }

  if (info.yields === 'tv') {
    if (!saysAny(view, TV_WORDING)) return null;
    // A household mail's "Yes, This Was Me" is not a TV's approval.
    const candidates = safeLinks(view, info.service).filter((anchor) => !HOUSEHOLD.path.test(pathOf(anchor.url)));
    const withDecision = candidates.map((anchor) => ({ anchor, decision: tvDecision(anchor) }));
    const approvals = withDecision.filter((c) => c.decision === 'approve').map((c) => ({ caption: c.anchor.caption || 'Approve', url: c.anchor.url }));
    const denials = withDecision.filter((c) => c.decision === 'deny').map((c) => ({ caption: c.anchor.caption || 'Deny', url: c.anchor.url }));
    if (approvals.length === 0) return null;
    const buttons = [...approvals, ...denials];
    return { ...nothing, links: buttons.map((b) => b.url), buttons, approvalLinks: approvals.map((a) => a.url), denialLinks: denials.map((d) => d.url) };
  }

  const kind = type === 'NFX_TEMPORARY_ACCESS_CODE' ? TEMPORARY_ACCESS : HOUSEHOLD;
  if (!saysAny(view, kind.wording)) return null;
  const buttons = safeLinks(view, info.service)
    .filter((anchor) => isOfKind(anchor, kind))
    .map((anchor) => ({ caption: anchor.caption || kind.defaultCaption, url: anchor.url }));
  return buttons.length ? { ...nothing, links: buttons.map((b) => b.url), buttons } : null;
}
