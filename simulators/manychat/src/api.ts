import type { FastifyInstance, FastifyReply } from 'fastify';
import { applyActions, dynamicBlockViolations } from './dynamic-block';
import { ManyChatError, subscriberMissing, validationError } from './errors';
import { PerSecondLimiter } from './rate-limit';
import { WINDOW_MS, fieldValueProblem, type CustomField, type ManyChatState, type Subscriber, type Tag } from './state';

type Input = Record<string, unknown>;

/** HUMAN_AGENT is a person's reply within 7 days; the rest Meta deprecated for Messenger from 2026-04-27 (external-apis.md §2). */
const ALLOWED_TAGS = ['HUMAN_AGENT'];
const DEPRECATED_TAGS = ['ACCOUNT_UPDATE', 'POST_PURCHASE_UPDATE', 'CONFIRMED_EVENT_UPDATE'];
/** Meta's Graph error for a parameter it no longer takes, passed through in ManyChat's sendContent envelope. */
const GRAPH_INVALID_PARAMETER = 100;

const isStringMap = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');

/** The public API at /fb/...: bearer check, per-endpoint rate limits, ManyChat's envelopes. */
export function registerPublicApi(app: FastifyInstance, state: ManyChatState, limiter: PerSecondLimiter): void {
  const fail = (reply: FastifyReply, error: ManyChatError) => reply.code(state.options.errorHttpStatus).send(error.toBody());

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0];
    if (!path.startsWith('/fb/')) return;
    if (request.headers.authorization !== `Bearer ${state.apiKey}`) {
      return reply.code(401).send({ status: 'error', message: 'Access denied: wrong or missing API token', details: {} });
    }
    const limit = state.options.rateLimits[path];
    if (limit !== undefined && !limiter.allow(path, limit, state.now())) {
      const answer = state.options.rateLimitAnswer;
      return reply.code(answer.status).send(answer.body);
    }
  });

  const route = (method: 'GET' | 'POST', path: string, handle: (input: Input) => unknown) =>
    app.route({
      method,
      url: path,
      handler: async (request, reply) => {
        try {
          const input = ((method === 'GET' ? request.query : request.body) ?? {}) as Input;
          const data = handle(input);
          return { status: 'success', ...(data === undefined ? {} : { data }) };
        } catch (error) {
          if (error instanceof ManyChatError) return fail(reply, error);
          throw error;
        }
      },
    });

  const subscriberOf = (input: Input): Subscriber => {
    const id = input.subscriber_id;
    if (id === undefined || id === null || id === '') throw validationError(['subscriber_id is required']);
    if (!/^\d+$/.test(String(id))) throw validationError(['subscriber_id must be an integer']);
    const subscriber = state.subscribers.get(String(id));
    if (!subscriber) throw subscriberMissing(id);
    return subscriber;
  };
  const fieldOf = (input: Input, byName: boolean): CustomField => {
    const field = byName ? state.fieldByName(String(input.field_name ?? '')) : state.fields.find((f) => f.id === Number(input.field_id));
    if (!field) throw validationError([byName ? `Field "${String(input.field_name)}" not found` : `Field with id ${String(input.field_id)} not found`]);
    return field;
  };
  const tagOf = (input: Input, byName: boolean): Tag => {
    const tag = byName ? state.tagByName(String(input.tag_name ?? '')) : state.tags.find((t) => t.id === Number(input.tag_id));
    if (!tag) throw validationError([byName ? `Tag "${String(input.tag_name)}" not found` : `Tag with id ${String(input.tag_id)} not found`]);
    return tag;
  };
  const setField = (subscriber: Subscriber, field: CustomField, value: unknown) => {
    const problem = state.setFieldValue(subscriber, field, value);
    if (problem) throw validationError([problem]);
  };

  route('GET', '/fb/page/getInfo', () => state.page);
  route('GET', '/fb/page/getFlows', () => ({ flows: state.flows, folders: state.folders }));
  route('GET', '/fb/page/getTags', () => state.tags);
  route('GET', '/fb/page/getCustomFields', () => state.fields);

  route('GET', '/fb/subscriber/getInfo', (input) => state.view(subscriberOf(input)));
  route('GET', '/fb/subscriber/findByCustomField', (input) => {
    const field = fieldOf(input, false);
    if (field.type !== 'text' && field.type !== 'number') throw validationError(['Only Text and Number fields can be searched']);
    const wanted = field.type === 'number' ? Number(input.field_value) : String(input.field_value ?? '');
    return [...state.subscribers.values()]
      .filter((s) => s.fields[field.id] === wanted)
      .slice(0, 100)
      .map((s) => state.view(s));
  });
  route('GET', '/fb/subscriber/findBySystemField', (input) => {
    const keys = (['email', 'phone'] as const).filter((k) => typeof input[k] === 'string' && input[k] !== '');
    if (keys.length !== 1) throw validationError(['Exactly one of email or phone is required']);
    const key = keys[0];
    const found = [...state.subscribers.values()].find((s) => s[key]?.toLowerCase() === String(input[key]).toLowerCase());
    if (!found) throw new ManyChatError('Subscriber not found', { messages: [`No subscriber with this ${key}`] });
    return state.view(found);
  });
  route('GET', '/fb/subscriber/findByName', (input) => {
    const name = String(input.name ?? '').trim().toLowerCase();
    if (!name) throw validationError(['name is required']);
    return [...state.subscribers.values()]
      .filter((s) => `${s.first_name} ${s.last_name}`.trim().toLowerCase() === name)
      .slice(0, 100)
      .map((s) => state.view(s));
  });

  route('POST', '/fb/subscriber/setCustomField', (input) => void setField(subscriberOf(input), fieldOf(input, false), input.field_value));
  route('POST', '/fb/subscriber/setCustomFieldByName', (input) => void setField(subscriberOf(input), fieldOf(input, true), input.field_value));
  route('POST', '/fb/subscriber/setCustomFields', (input) => {
    const subscriber = subscriberOf(input);
    const fields = input.fields;
    if (!Array.isArray(fields) || fields.length === 0) throw validationError(['fields must be a non-empty array']);
    if (fields.length > 20) throw validationError([`fields has ${fields.length} entries; the limit is 20`]);
    const resolved = fields.map((f: Input) => ({ field: fieldOf(f, f.field_id === undefined), value: f.field_value }));
    const problems = resolved.map(({ field, value }) => fieldValueProblem(field, value)).filter((p) => p !== null);
    if (problems.length > 0) throw validationError(problems);
    for (const { field, value } of resolved) setField(subscriber, field, value);
  });
  for (const [name, byName, add] of [
    ['addTag', false, true],
    ['addTagByName', true, true],
    ['removeTag', false, false],
    ['removeTagByName', true, false],
  ] as const) {
    route('POST', `/fb/subscriber/${name}`, (input) => {
      const subscriber = subscriberOf(input);
      const tag = tagOf(input, byName);
      subscriber.tagIds = subscriber.tagIds.filter((id) => id !== tag.id);
      if (add) subscriber.tagIds.push(tag.id);
    });
  }

  route('POST', '/fb/sending/sendContent', (input) => {
    const subscriber = subscriberOf(input);
    const tag = input.message_tag;
    if (DEPRECATED_TAGS.includes(String(tag))) {
      throw new ManyChatError(
        `(#${GRAPH_INVALID_PARAMETER}) Message tag ${String(tag)} is deprecated for Messenger since 2026-04-27`,
        { messages: ['Outside the 24-hour window send an approved utility template (POST /fb/sending/sendTemplate)'] },
        GRAPH_INVALID_PARAMETER,
      );
    }
    if (tag !== undefined && tag !== null && !ALLOWED_TAGS.includes(String(tag))) throw validationError([`message_tag must be one of ${ALLOWED_TAGS.join(', ')}`]);
    const problems = dynamicBlockViolations(input.data, { state, channel: subscriber.channel, viaPublicApi: true });
    if (problems.length > 0) throw validationError(problems);
    const humanAgentDays = state.options.humanAgentWindowDays;
    const windowMs = !tag ? WINDOW_MS : tag === 'HUMAN_AGENT' && humanAgentDays > 0 ? humanAgentDays * WINDOW_MS : Infinity;
    if (!state.withinWindow(subscriber, windowMs)) {
      throw new ManyChatError(
        "Permission denied to send a message: subscriber's last interaction was over 24h ago",
        { messages: ['Outside the 24-hour window send an approved utility template (POST /fb/sending/sendTemplate)'] },
        3011,
      );
    }
    const content = (input.data as { content: Input }).content;
    state.deliver({ subscriberId: subscriber.id, source: 'sendContent', content, messageTag: tag ? String(tag) : null });
    applyActions(state, subscriber, content.actions);
  });

  /**
   * A Messenger utility template, in or out of the 24-hour window. ManyChat's own form of this call
   * is not published: this is the form notifications assumes (services/notifications/src/clients/manychat.ts,
   * docs/operations.md): `{subscriber_id, template_name, variables: {name: text}}`, sendContent's
   * envelopes, an approved template only, every placeholder it names filled with non-empty text.
   */
  route('POST', '/fb/sending/sendTemplate', (input) => {
    const subscriber = subscriberOf(input);
    const name = input.template_name;
    if (typeof name !== 'string' || name === '') throw validationError(['template_name is required']);
    const variables = input.variables ?? {};
    if (!isStringMap(variables)) throw validationError(['variables must be an object of texts']);
    const template = state.templates.get(name);
    if (!template) throw new ManyChatError('Template not found or not approved', { messages: [`"${name}" is not an approved utility template of this page`] });
    const problems = [
      ...(template.variables ?? []).filter((variable) => !(variable in variables)).map((variable) => `variables.${variable} is required by "${name}"`),
      ...Object.entries(variables).filter(([, value]) => value.trim() === '').map(([variable]) => `variables.${variable} must not be empty`),
    ];
    if (problems.length > 0) throw validationError(problems);
    state.deliver({ subscriberId: subscriber.id, source: 'sendTemplate', content: { template_name: name, variables }, messageTag: null, templateName: name });
  });

  route('POST', '/fb/sending/sendFlow', (input) => {
    const subscriber = subscriberOf(input);
    const flow = state.flows.find((f) => f.ns === input.flow_ns);
    if (!flow) throw new ManyChatError('Flow not found', { messages: [`Flow "${String(input.flow_ns)}" does not exist on this page`] });
    if (state.options.sendFlowNeedsWindow && !state.withinWindow(subscriber)) {
      throw new ManyChatError("Subscriber's last interaction was over 24h ago and the flow has no message tag", {});
    }
    const now = state.now();
    const recent = (state.flowSends.get(subscriber.id) ?? []).filter((t) => now - t < 60 * 60 * 1000);
    if (recent.length >= state.options.sendFlowPerSubscriberPerHour) {
      throw new ManyChatError('Too many flows sent to this subscriber in the last hour', { limit: state.options.sendFlowPerSubscriberPerHour });
    }
    state.flowSends.set(subscriber.id, [...recent, now]);
    state.deliver({ subscriberId: subscriber.id, source: 'sendFlow', content: { flow: flow.name }, flowNs: flow.ns, messageTag: null });
  });

  route('POST', '/fb/sending/sendContentByUserRef', (input) => {
    const userRef = String(input.user_ref ?? '');
    const subscriber = [...state.subscribers.values()].find((s) => s.user_ref === userRef);
    if (!subscriber) throw new ManyChatError('User ref not found', { messages: [`user_ref "${userRef}" is unknown or expired`] });
    const problems = dynamicBlockViolations(input.data, { state, channel: 'messenger', viaPublicApi: true });
    if (problems.length > 0) throw validationError(problems);
    state.deliver({ subscriberId: subscriber.id, userRef, source: 'sendContentByUserRef', content: (input.data as Input).content, messageTag: null });
  });
}
