import { ServiceClient, type IdentitySigner } from '@bo/platform';
import { parseMails, type CodeType, type ParseResult, type ParserMail } from '@bo/proto';

/** ai-chat's parse of a customer's recent mails (ADR 15: expressions first, the AI second, blocked kinds refused). */
export class AiChatClient {
  private readonly client: ServiceClient;

  constructor(options: { baseUrl: string; signer: IdentitySigner }) {
    // ai-chat may try several AI providers in turn, each with its own timeout; leave room for them.
    this.client = new ServiceClient({ baseUrl: options.baseUrl, signer: options.signer, timeoutMs: 45_000 });
  }

  /** The parse result, and whether it may be remembered (false when it depended on an AI that did not answer). */
  async parse(codeType: CodeType, mails: ParserMail[]): Promise<{ result: ParseResult; cacheable: boolean }> {
    return this.client.call(parseMails, { body: { codeType, mails } });
  }
}
