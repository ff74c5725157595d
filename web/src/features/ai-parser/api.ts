/**
 * The /ai-parser-config page's calls. Their shapes are the route contracts' (types only: no zod in
 * the bundle); the code type lists mirror proto's code-fetch contract (api.test.ts checks they agree).
 */
import type { BlockedCodeType, CodeType, getEmailParserPromptAlias, ReplyOf, RequestBodyOf, saveEmailParserPromptAlias, testEmailParser } from '@bo/proto';
import { apiKey } from '../../lib/paths';

export type { BlockedCodeType, CodeType, ParseResult } from '@bo/proto';

export type ParserPrompt = ReplyOf<typeof getEmailParserPromptAlias>;
export type PromptSave = RequestBodyOf<typeof saveEmailParserPromptAlias>;
export type PromptSaveReply = ReplyOf<typeof saveEmailParserPromptAlias>;
export type ParserTest = RequestBodyOf<typeof testEmailParser>;
export type ParserTestReply = ReplyOf<typeof testEmailParser>;

/** The prompt on screen: the saved one, or (none saved: 404) the default the parser uses meanwhile. */
export type LoadedPrompt = ParserPrompt & { saved: boolean };

/** Document 2 §9: the eight types the parser hands out, and the kinds it always refuses. */
export const codeTypeList: readonly CodeType[] = [
  'NFX_SIGN_IN_CODE', 'NFX_TEMPORARY_ACCESS_CODE', 'NFX_UPDATE_HOUSEHOLD', 'NFX_TV_SIGN_IN_LINK', 'DP_OTP', 'AMZ_OTP', 'HLU_OTP', 'MAX_OTP',
];
export const blockedTypeList: readonly BlockedCodeType[] = ['PASSWORD_RESET', 'SECURITY_VERIFICATION_CODE', 'EMAIL_CHANGE_VERIFICATION'];

export const aiParserKeys = {
  prompt: apiKey('/api/system-prompts/email_parser_prompt'),
} as const;

export const aiParserPaths = {
  prompt: '/api/system-prompts/email_parser_prompt',
  defaultPrompt: '/api/system-prompts/email_parser/default',
  test: '/api/ai-parser/test',
} as const;
