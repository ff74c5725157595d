import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CodeType, ParserMail } from '@bo/proto';
import { classifyBlocked, extract } from '../src/domain/expressions';
import { DEFAULT_EMAIL_PARSER_PROMPT } from '../src/domain/parser-prompt';
import { describeOutcome } from '../src/domain/result-texts';
import { aiJson, mail, startAiChatSystem, type AiChatSystem } from './system';

// Mails as streaming-keys hands them over, newest first.
const signInCode = mail({
  from: 'info@account.netflix.com',
  subject: 'Netflix: Your sign-in code',
  text: 'Enter this code to sign in\n4821\nThis code will expire in 15 minutes. If you did not request this code, you can ignore this e-mail.',
});
const passwordReset = mail({
  from: 'info@account.netflix.com',
  subject: 'Complete your password reset request',
  text: 'We received a request to reset the password for your Netflix account. Enter this code to reset it: 5530\nReset token RESET-TOKEN-771',
});
/** A Disney+ mail whose code the expressions do not read (no code wording): only the AI can. */
const disneyUnworded = (n = 0) =>
  mail({ from: 'disneyplus@mail.disneyplus.com', subject: 'Disney+', text: `Hi there! Here it is: 49381${n}\nEnjoy watching. Marker DISNEY-MAIL-${n}` }, 2 + n);
/** A Netflix mail the expressions read no temporary-access link from: the wording is unusual. */
const netflixUnworded = mail({
  from: 'info@account.netflix.com',
  subject: 'Netflix',
  text: 'Away from home? Open this to keep watching.',
  html: '<p>Away from home? Open this to keep watching.</p><a href="https://www.netflix.com/account/ta?nftoken=Zx81">Open Netflix</a><p>Offer: <a href="https://netflix.com.evil.example/ta?x=1">here</a> or <a href="http://www.netflix.com/ta?plain=1">plain</a></p>',
});
const tvUnworded = mail({
  from: 'info@account.netflix.com',
  subject: 'Netflix: a new request',
  text: 'Someone asked to watch on a Samsung screen. Choose below.',
  html: '<p>Someone asked to watch on a Samsung screen. Choose below.</p><a href="https://www.netflix.com/ilum?code=AB12">Go ahead</a> <a href="https://www.netflix.com/ilum/deny?code=AB12">Stop it</a>',
});

describe('the e-mail parser: expressions first, the AI second, blocked kinds refused', () => {
  let s: AiChatSystem;
  const openai = () => s.sims.openai;

  beforeAll(async () => {
    s = await startAiChatSystem('ai_chat_email_parser');
  });
  afterAll(() => s?.stop());
  beforeEach(() => s.resetSimulators());

  const texts = (outcome: Parameters<typeof describeOutcome>[0], codeType: CodeType, blocked: Parameters<typeof describeOutcome>[2] = null) => describeOutcome(outcome, codeType, blocked);
  const userMessages = async () => (await openai().chatRequests()).map((request) => request.messages.find((m) => m.role === 'user')!.content);

  it('the test mails are what the tests say: the expressions read the first, refuse the second and read nothing of the others', () => {
    expect(extract(signInCode, 'NFX_SIGN_IN_CODE')?.code).toBe('4821');
    expect(classifyBlocked(passwordReset)).toBe('PASSWORD_RESET');
    for (const m of [disneyUnworded(), netflixUnworded, tvUnworded]) expect(classifyBlocked(m)).toBeNull();
    expect(extract(disneyUnworded(), 'DP_OTP')).toBeNull();
    expect(extract(netflixUnworded, 'NFX_TEMPORARY_ACCESS_CODE')).toBeNull();
    expect(extract(tvUnworded, 'NFX_TV_SIGN_IN_LINK')).toBeNull();
  });

  it('answers from the expressions without any AI request', async () => {
    const { status, body } = await s.parse('NFX_SIGN_IN_CODE', [signInCode]);
    expect(status).toBe(200);
    expect(body).toEqual({
      result: { found: true, ...texts('found', 'NFX_SIGN_IN_CODE'), code: '4821', links: [], buttons: [], outcome: 'found', approvalLinks: [], denialLinks: [], blockedType: null, source: 'expressions' },
      cacheable: true,
    });
    expect(await openai().attempts()).toEqual([]);
  });

  it('refuses a password-reset mail without asking the AI, and still reads an older sign-in code under it', async () => {
    const refused = await s.parse('NFX_SIGN_IN_CODE', [passwordReset]);
    expect(refused.body).toEqual({
      result: { found: false, ...texts('blocked', 'NFX_SIGN_IN_CODE', 'PASSWORD_RESET'), code: null, links: [], buttons: [], outcome: 'blocked', approvalLinks: [], denialLinks: [], blockedType: 'PASSWORD_RESET', source: 'expressions' },
      cacheable: true,
    });
    expect(refused.body.result.message_mn).not.toBe('');
    expect(JSON.stringify(refused.body)).not.toContain('5530');

    const under = await s.parse('NFX_SIGN_IN_CODE', [passwordReset, signInCode]);
    expect(under.body.result).toMatchObject({ outcome: 'found', code: '4821', source: 'expressions' });
    expect(await openai().attempts()).toEqual([]);
  });

  it('says no recent mails when there are none, or none from the service (a look-alike sender is dropped), without the AI', async () => {
    const none = await s.parse('NFX_SIGN_IN_CODE', []);
    expect(none.body).toEqual({
      result: { found: false, ...texts('no_recent_emails', 'NFX_SIGN_IN_CODE'), code: null, links: [], buttons: [], outcome: 'no_recent_emails', approvalLinks: [], denialLinks: [], blockedType: null, source: 'none' },
      cacheable: true,
    });
    expect(none.body.result.reason).toMatch(/^No recent emails found/);
    const foreign = await s.parse('NFX_SIGN_IN_CODE', [{ ...signInCode, from: 'info@netflix.com.evil.example' }, { ...signInCode, from: 'Netflix <info@account.netflix.com.mx>' }]);
    expect(foreign.body.result).toMatchObject({ outcome: 'no_recent_emails', code: null });
    // Another service's mail for this type is not this service's either.
    expect((await s.parse('HLU_OTP', [disneyUnworded()])).body.result.outcome).toBe('no_recent_emails');
    expect(await openai().attempts()).toEqual([]);
  });

  it('asks the AI only when the expressions find nothing: once, with the newest three readable mails, never a blocked one, the default prompt and a JSON answer', async () => {
    await openai().control('script', aiJson({ found: true, type: 'DP_OTP', code: '493810', links: [], blocked_type: null }));
    const mails: ParserMail[] = [
      { ...passwordReset, from: 'disneyplus@mail.disneyplus.com', subject: 'Reset your Disney+ password' },
      ...[0, 1, 2, 3].map(disneyUnworded),
    ];
    const { body } = await s.parse('DP_OTP', mails);
    expect(body).toEqual({
      result: { found: true, ...texts('found', 'DP_OTP'), code: '493810', links: [], buttons: [], outcome: 'found', approvalLinks: [], denialLinks: [], blockedType: null, source: 'ai' },
      cacheable: true,
    });

    const requests = await openai().chatRequests();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ model: 'gpt-4o-mini', response_format: { type: 'json_object' } });
    expect(requests[0].messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(requests[0].messages[0].content).toBe(DEFAULT_EMAIL_PARSER_PROMPT);
    const [user] = await userMessages();
    expect(user).toContain('DP_OTP');
    expect(user).toContain('JSON');
    for (const n of [0, 1, 2]) expect(user).toContain(`DISNEY-MAIL-${n}`);
    expect(user).not.toContain('DISNEY-MAIL-3');
    expect(user).not.toContain('RESET-TOKEN-771');
    expect(user).not.toContain('Reset your Disney+ password');
  });

  it('sends the saved e-mail parser prompt once there is one', async () => {
    await s.call('PUT', '/api/system-prompts/email_parser_prompt', { name: 'Email parser', content: 'Зөвхөн JSON хариу өг. SAVED-PROMPT-1' });
    await s.parse('DP_OTP', [disneyUnworded()]);
    const [request] = await openai().chatRequests();
    expect(request.messages[0]).toEqual({ role: 'system', content: 'Зөвхөн JSON хариу өг. SAVED-PROMPT-1' });
    await s.aiChat.prisma.systemPrompt.deleteMany({});
  });

  it('refuses an AI answer that names a blocked kind, by blocked_type or by type, as a blocked outcome', async () => {
    await openai().control('script', [
      aiJson({ found: false, type: null, code: null, links: [], blocked_type: 'SECURITY_VERIFICATION_CODE' }),
      aiJson({ found: true, type: 'PASSWORD_RESET', code: '493810', links: [], blocked_type: null }),
    ]);
    const security = (await s.parse('DP_OTP', [disneyUnworded()])).body;
    expect(security).toEqual({
      result: { found: false, ...texts('blocked', 'DP_OTP', 'SECURITY_VERIFICATION_CODE'), code: null, links: [], buttons: [], outcome: 'blocked', approvalLinks: [], denialLinks: [], blockedType: 'SECURITY_VERIFICATION_CODE', source: 'ai' },
      cacheable: true,
    });
    const reset = (await s.parse('DP_OTP', [disneyUnworded()])).body.result;
    expect(reset).toMatchObject({ found: false, outcome: 'blocked', blockedType: 'PASSWORD_RESET', code: null, source: 'ai' });
  });

  it('refuses a password-reset link from the AI as the expressions would', async () => {
    await openai().control('script', aiJson({ found: true, type: 'NFX_TEMPORARY_ACCESS_CODE', code: null, links: ['https://www.netflix.com/account/ta?nftoken=Zx81', 'https://www.netflix.com/password?g=af12'], blocked_type: null }));
    const { result } = (await s.parse('NFX_TEMPORARY_ACCESS_CODE', [netflixUnworded])).body;
    expect(result).toMatchObject({ found: false, outcome: 'blocked', blockedType: 'PASSWORD_RESET', links: [], buttons: [], source: 'ai' });
  });

  it('drops what does not hold up: a code of the wrong shape or not in the mail, a link on a foreign domain or over http, nonsense', async () => {
    const notFound = { found: false, ...texts('not_found', 'DP_OTP'), code: null, links: [], buttons: [], outcome: 'not_found', approvalLinks: [], denialLinks: [], blockedType: null, source: 'ai' };
    await openai().control('script', [
      aiJson({ found: true, type: 'DP_OTP', code: '49381', links: [], blocked_type: null }),
      aiJson({ found: true, type: 'DP_OTP', code: '111111', links: [], blocked_type: null }),
      { content: 'Sure! The code is 493810.' },
      aiJson({ found: 'yes', code: '493810' }),
      aiJson({ found: true, type: 'HLU_OTP', code: '493810', links: [], blocked_type: null }),
    ]);
    for (const reason of ['wrong shape', 'invented', 'not JSON', 'wrong JSON shape', 'another type']) {
      const { body } = await s.parse('DP_OTP', [disneyUnworded()]);
      expect(body, reason).toEqual({ result: notFound, cacheable: true });
    }
    expect(notFound.reason).toMatch(/^No code found/);

    await openai().control('script', aiJson({ found: true, type: 'NFX_TEMPORARY_ACCESS_CODE', code: null, links: ['https://netflix.com.evil.example/ta?x=1', 'http://www.netflix.com/ta?plain=1', 'https://www.netflix.com/made-up'], blocked_type: null }));
    const links = (await s.parse('NFX_TEMPORARY_ACCESS_CODE', [netflixUnworded])).body.result;
    expect(links).toMatchObject({ found: false, outcome: 'not_found', links: [], buttons: [], source: 'ai' });
    expect(links.reason).toMatch(/^No links found/);
  });

  it("takes the AI's valid links with the mail's captions, and splits a TV sign-in's approve and deny links", async () => {
    await openai().control('script', [
      aiJson({ found: true, type: 'NFX_TEMPORARY_ACCESS_CODE', code: null, links: ['https://www.netflix.com/account/ta?nftoken=Zx81', 'https://netflix.com.evil.example/ta?x=1'], blocked_type: null }),
      aiJson({ found: true, type: 'NFX_TV_SIGN_IN_LINK', code: null, links: ['https://www.netflix.com/ilum?code=AB12', 'https://www.netflix.com/ilum/deny?code=AB12'], blocked_type: null }),
    ]);
    const temporary = (await s.parse('NFX_TEMPORARY_ACCESS_CODE', [netflixUnworded])).body.result;
    expect(temporary).toMatchObject({
      found: true,
      outcome: 'found',
      links: ['https://www.netflix.com/account/ta?nftoken=Zx81'],
      buttons: [{ caption: 'Open Netflix', url: 'https://www.netflix.com/account/ta?nftoken=Zx81' }],
      source: 'ai',
    });
    const tv = (await s.parse('NFX_TV_SIGN_IN_LINK', [tvUnworded])).body.result;
    expect(tv).toMatchObject({
      found: true,
      approvalLinks: ['https://www.netflix.com/ilum?code=AB12'],
      denialLinks: ['https://www.netflix.com/ilum/deny?code=AB12'],
      links: ['https://www.netflix.com/ilum?code=AB12', 'https://www.netflix.com/ilum/deny?code=AB12'],
      source: 'ai',
    });
  });

  it('a blocked mail seen with nothing else found refuses, also when the AI found nothing in the others', async () => {
    await openai().control('script', aiJson({ found: false, type: null, code: null, links: [], blocked_type: null }));
    const { body } = await s.parse('NFX_SIGN_IN_CODE', [passwordReset, { ...disneyUnworded(), from: 'info@account.netflix.com', subject: 'Netflix' }]);
    expect(body).toMatchObject({ result: { outcome: 'blocked', blockedType: 'PASSWORD_RESET', found: false, code: null }, cacheable: true });
    expect(await openai().chatRequests()).toHaveLength(1);
  });

  it("runs the admin's test through the same pipeline, on a pasted mail with no sender (text or HTML)", async () => {
    const expressions = await s.call('POST', '/api/ai-parser/test', { emailText: 'Netflix\nEnter this code to sign in\n4821\nThe code expires in 15 minutes.', codeType: 'NFX_SIGN_IN_CODE' });
    expect(expressions.body).toEqual({
      success: true,
      data: { found: true, ...texts('found', 'NFX_SIGN_IN_CODE'), code: '4821', links: [], buttons: [], outcome: 'found', approvalLinks: [], denialLinks: [], blockedType: null, source: 'expressions' },
    });
    const blocked = await s.call('POST', '/api/ai-parser/test', { emailText: passwordReset.text, codeType: 'NFX_SIGN_IN_CODE' });
    expect(blocked.body.data).toMatchObject({ outcome: 'blocked', blockedType: 'PASSWORD_RESET', source: 'expressions' });
    expect(await openai().attempts()).toEqual([]);

    await openai().control('script', aiJson({ found: true, type: 'NFX_TEMPORARY_ACCESS_CODE', code: null, links: ['https://www.netflix.com/account/ta?nftoken=Zx81'], blocked_type: null }));
    const html = await s.call('POST', '/api/ai-parser/test', { emailText: netflixUnworded.html, codeType: 'NFX_TEMPORARY_ACCESS_CODE' });
    expect(html.body.data).toMatchObject({ found: true, links: ['https://www.netflix.com/account/ta?nftoken=Zx81'], buttons: [{ caption: 'Open Netflix' }], source: 'ai' });
    const [user] = await userMessages();
    expect(user).toContain('Away from home? Open this to keep watching.');
    expect(user).not.toContain('<p>');

    const missing = await s.call('POST', '/api/ai-parser/test', { emailText: ' ', codeType: 'NFX_SIGN_IN_CODE' });
    expect([missing.status, missing.body.details[0].message]).toEqual([400, 'Please provide both email text and code type']);
    expect((await s.call('POST', '/api/ai-parser/test', { emailText: 'x' })).body.details[0].message).toBe('Please provide both email text and code type');
    expect((await s.call('POST', '/api/ai-parser/test', { emailText: 'x', codeType: 'NFX_PASSWORD' })).status).toBe(400);
  });
});
