import type { ParserMail } from '@bo/proto';

/**
 * What a reader of a mail sees: its text, and its links with the captions they are shown under.
 * Mails arrive already decoded (quoted-printable, charsets); the HTML is read with expressions, not
 * a DOM, because the parser only needs lines of text and the anchors.
 */

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ensp: ' ', emsp: ' ', thinsp: ' ',
  copy: '©', reg: '®', trade: '™', hellip: '…', mdash: '—', ndash: '–', bull: '•', middot: '·',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', euro: '€', pound: '£',
  zwnj: '', zwj: '', shy: '', lrm: '', rlm: '',
};

/** Invisible characters mail templates pad their preheaders with, and the non-breaking spaces. */
const INVISIBLE = /\u034f|[\u00ad\u200b-\u200f\u2060\ufeff]/g;
const WIDE_SPACE = /[\u00a0\u2000-\u200a\u202f\u205f\u3000]/g;

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const point = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : '';
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Lines trimmed, runs of spaces made one, at most one empty line in a row. */
function tidy(s: string): string {
  const lines = s.replace(INVISIBLE, '').replace(WIDE_SPACE, ' ').replace(/\r\n?/g, '\n').split('\n').map((line) => line.replace(/[ \t\f\v]+/g, ' ').trim());
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

/*
 * Every expression here reads in one pass (no pattern that can rescan the rest of a 500 kB body
 * once per '<'): a tag ends at the next '<' or '>', and sections are cut with indexOf.
 */
const TAG = /<[^<>]*>/g;
const BLOCK_TAGS = /<\/?(?:p|div|br|hr|tr|table|tbody|thead|tfoot|h[1-6]|li|ul|ol|dl|dt|dd|section|article|header|footer|main|nav|aside|center|blockquote|pre|address|form|fieldset|figure|figcaption)\b[^<>]*>/gi;
/** Table cells sit side by side: a code split into one cell per digit reads "1 2 3 4". */
const CELL_TAGS = /<\/?(?:td|th)\b[^<>]*>/gi;
/** Sections no reader sees: comments (Outlook's conditional ones too), the head, styles, scripts. */
const HIDDEN_OPENINGS = /<!--|<(script|style|head|title|noscript|template)\b[^<>]*>/gi;

function withoutHiddenSections(html: string): string {
  const lower = html.toLowerCase();
  let kept = '';
  let from = 0;
  for (const opening of html.matchAll(HIDDEN_OPENINGS)) {
    if (opening.index < from) continue;
    const closing = opening[0] === '<!--' ? '-->' : `</${opening[1].toLowerCase()}`;
    const end = lower.indexOf(closing, opening.index + opening[0].length);
    kept += html.slice(from, opening.index);
    // An unclosed section hides the rest, as it does in a mail reader.
    if (end < 0) return kept;
    from = closing === '-->' ? end + 3 : Math.max(lower.indexOf('>', end) + 1, end + closing.length);
  }
  return kept + html.slice(from);
}

/** The visible text of an HTML body: no tags, styles or scripts, entities decoded, one line per block. */
export function htmlToText(html: string): string {
  const text = withoutHiddenSections(html).replace(BLOCK_TAGS, '\n').replace(CELL_TAGS, ' ').replace(TAG, '');
  return tidy(decodeEntities(text));
}

/** A pasted mail (the admin's parser test) may be the HTML source itself. */
const looksLikeHtml = (s: string) => /<(?:html|body|table|div|p|br|a|span|td)\b[^<>]*>/i.test(s);

/** The mail's HTML: its HTML body, else a text body that is really HTML. */
export function htmlOf(mail: ParserMail): string {
  if (mail.html.trim()) return mail.html;
  return looksLikeHtml(mail.text) ? mail.text : '';
}

/** The text body, else the HTML's visible text. */
export function visibleText(mail: ParserMail): string {
  if (mail.text.trim() && !looksLikeHtml(mail.text)) return tidy(mail.text);
  return htmlToText(htmlOf(mail));
}

const ATTRIBUTES = Object.fromEntries(['href', 'alt', 'title'].map((name) => [name, new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')]));

const attribute = (attributes: string, name: 'href' | 'alt' | 'title') => {
  const match = ATTRIBUTES[name].exec(attributes);
  return match ? decodeEntities(match[1] ?? match[2] ?? match[3]).trim() : null;
};

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

const MAX_ANCHOR_HTML = 4000;

/** `<a href>` links of an HTML body; the caption is the anchor's text, else its image's alt or its title. */
function htmlAnchors(html: string): { caption: string; url: string }[] {
  const openings = [...html.matchAll(/<a\b([^<>]*)>/gi)];
  const closings = [...html.matchAll(/<\/a\s*>/gi)].map((closing) => closing.index);
  const anchors: { caption: string; url: string }[] = [];
  let nextClosing = 0;
  openings.forEach((opening, i) => {
    const start = opening.index + opening[0].length;
    while (nextClosing < closings.length && closings[nextClosing] < start) nextClosing++;
    // The caption ends at </a>; an unclosed anchor ends at the next one, and a caption is never long.
    const end = Math.min(closings[nextClosing] ?? html.length, openings[i + 1]?.index ?? html.length, start + MAX_ANCHOR_HTML);
    const url = attribute(opening[1], 'href');
    if (!url || !/^https?:\/\//i.test(url)) return;
    const inner = html.slice(start, end);
    const caption = oneLine(htmlToText(inner)) || attribute(/<img\b[^<>]*>/i.exec(inner)?.[0] ?? '', 'alt') || attribute(opening[1], 'title') || '';
    anchors.push({ caption: oneLine(caption), url });
  });
  return anchors;
}

const URL_IN_TEXT = /https?:\/\/[^\s<>()[\]"']+/gi;
/** A caption is a few words, like a button's: a whole sentence before a link is not one. */
const MAX_TEXT_CAPTION = 60;

/** `s` without any of `chars` at its end (a loop: an expression would rescan long runs). */
function trimEnd(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1])) end--;
  return s.slice(0, end);
}

/**
 * Links written out in a text body. Mails write them as "Get Code: https://…", "Get Code
 * [https://…]", "Get Code <https://…>", or the caption on the line above the link.
 */
function textAnchors(text: string): { caption: string; url: string }[] {
  const anchors: { caption: string; url: string }[] = [];
  let lineAbove = '';
  for (const line of tidy(text).split('\n')) {
    let previousEnd = 0;
    for (const match of line.matchAll(URL_IN_TEXT)) {
      const url = trimEnd(match[0], '.,;:!?');
      // Only the words between this link and the one before it on the line: "Approve: https://… Deny: https://…".
      const words = line.slice(Math.max(previousEnd, match.index - 4 * MAX_TEXT_CAPTION), match.index);
      const before = trimEnd(words.replace(/^[\s\])>]+/, ''), ' \t:-–—([<').trim();
      const firstOnLine = previousEnd === 0;
      previousEnd = match.index + match[0].length;
      let caption = before.length <= MAX_TEXT_CAPTION ? before : '';
      if (!before && firstOnLine && lineAbove.length <= MAX_TEXT_CAPTION && !/https?:\/\//i.test(lineAbove) && !/[.!?]$/.test(lineAbove)) {
        caption = lineAbove.replace(/:$/, '');
      }
      anchors.push({ caption, url });
    }
    if (line) lineAbove = line;
  }
  return anchors;
}

/** Every link of the mail once (the first place it appears, with the first caption found for it). */
export function anchorsOf(mail: ParserMail): { caption: string; url: string }[] {
  const html = htmlOf(mail);
  const fromText = html === mail.text ? [] : textAnchors(mail.text);
  const byUrl = new Map<string, { caption: string; url: string }>();
  for (const anchor of [...htmlAnchors(html), ...fromText]) {
    const known = byUrl.get(anchor.url);
    if (!known) byUrl.set(anchor.url, anchor);
    else if (!known.caption && anchor.caption) known.caption = anchor.caption;
  }
  return [...byUrl.values()];
}
