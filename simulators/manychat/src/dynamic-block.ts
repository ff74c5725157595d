import { fieldValueProblem, type Channel, type ManyChatState, type Subscriber } from './state';

/** What the checks need to know besides the block itself. */
export interface BlockContext {
  state: ManyChatState;
  channel: Channel;
  /** Node buttons and quick replies cannot be sent through the public API. */
  viaPublicApi: boolean;
}

/** Messenger's limit on one text message. */
const MAX_TEXT_CHARACTERS = 2000;
const MESSAGE_TYPES = ['text', 'image', 'video', 'audio', 'file', 'cards', 'list'];
const BUTTON_TYPES = ['url', 'call', 'flow', 'node', 'share', 'buy', 'dynamic_block_callback'];
const BUTTONS_WITH_ACTIONS = ['url', 'flow', 'node'];
const QUICK_REPLY_TYPES = ['node', 'flow', 'dynamic_block_callback'];
const ACTION_TYPES = ['add_tag', 'remove_tag', 'set_field_value', 'unset_field_value'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * Checks a Dynamic Block v2 object against the documented structure and limits.
 * Returns every violation (empty when the block is acceptable), each naming its JSON path.
 */
export function dynamicBlockViolations(block: unknown, context: BlockContext): string[] {
  const problems: string[] = [];
  if (!isObject(block)) return ['the reply is not a JSON object'];
  if (block.version !== 'v2') problems.push(`version must be "v2" (got ${JSON.stringify(block.version)})`);
  const content = block.content;
  if (!isObject(content)) return [...problems, 'content must be an object'];

  const channel = context.channel;
  if (channel === 'messenger') {
    if (content.type !== undefined && content.type !== 'messenger') problems.push(`content.type "${String(content.type)}" does not match the subscriber's channel (messenger)`);
  } else if (content.type !== channel) {
    problems.push(`content.type must be "${channel}" for a ${channel} subscriber (got ${JSON.stringify(content.type)})`);
  }

  if (!Array.isArray(content.messages)) problems.push('content.messages must be an array');
  else {
    if (content.messages.length > 10) problems.push(`content.messages has ${content.messages.length} messages; the limit is 10`);
    content.messages.forEach((message, i) => problems.push(...messageViolations(message, `content.messages[${i}]`, context)));
  }

  if (content.actions !== undefined) {
    if (!Array.isArray(content.actions)) problems.push('content.actions must be an array');
    else {
      if (content.actions.length > 5) problems.push(`content.actions has ${content.actions.length} actions; the limit is 5`);
      content.actions.forEach((action, i) => problems.push(...actionViolations(action, `content.actions[${i}]`, context)));
    }
  }

  if (content.quick_replies !== undefined) {
    if (!Array.isArray(content.quick_replies)) problems.push('content.quick_replies must be an array');
    else {
      if (content.quick_replies.length > 11) problems.push(`content.quick_replies has ${content.quick_replies.length} entries; the limit is 11`);
      if ((channel === 'whatsapp' || channel === 'telegram') && content.quick_replies.length > 0) problems.push(`content.quick_replies are not supported on ${channel}`);
      content.quick_replies.forEach((reply, i) => problems.push(...quickReplyViolations(reply, `content.quick_replies[${i}]`, context)));
    }
  }
  return problems;
}

function messageViolations(message: unknown, path: string, context: BlockContext): string[] {
  if (!isObject(message)) return [`${path} must be an object`];
  const type = message.type;
  if (typeof type !== 'string' || !MESSAGE_TYPES.includes(type)) return [`${path}.type ${JSON.stringify(type)} is not a known message type (${MESSAGE_TYPES.join(', ')})`];
  const problems: string[] = [];
  if (type === 'text' && !isText(message.text)) problems.push(`${path}.text must be a non-empty string`);
  if (type === 'text' && isText(message.text) && message.text.length > MAX_TEXT_CHARACTERS) problems.push(`${path}.text has more than ${MAX_TEXT_CHARACTERS} characters`);
  if (['image', 'video', 'audio', 'file'].includes(type) && !isText(message.url)) problems.push(`${path}.url is required for ${type}`);
  if (type === 'cards' || type === 'list') {
    const elements = message.elements;
    if (!Array.isArray(elements) || elements.length === 0) problems.push(`${path}.elements must be a non-empty array`);
    else {
      if (type === 'cards' && elements.length > 10) problems.push(`${path}.elements has ${elements.length} cards; the limit is 10`);
      if (type === 'list' && (elements.length < 2 || elements.length > 4)) problems.push(`${path}.elements must hold 2 to 4 items for a list`);
      elements.forEach((element, i) => {
        const at = `${path}.elements[${i}]`;
        if (!isObject(element)) return problems.push(`${at} must be an object`);
        if (!isText(element.title)) problems.push(`${at}.title is required`);
        problems.push(...buttonsViolations(element.buttons, `${at}.buttons`, context));
      });
    }
    if (type === 'cards' && message.image_aspect_ratio !== undefined && !['horizontal', 'square'].includes(String(message.image_aspect_ratio)))
      problems.push(`${path}.image_aspect_ratio must be "horizontal" or "square"`);
    if (type === 'list' && context.channel !== 'messenger') problems.push(`${path}: list messages are Messenger-only`);
  }
  problems.push(...buttonsViolations(message.buttons, `${path}.buttons`, context));
  return problems;
}

function buttonsViolations(buttons: unknown, path: string, context: BlockContext): string[] {
  if (buttons === undefined) return [];
  if (!Array.isArray(buttons)) return [`${path} must be an array`];
  const problems: string[] = [];
  const max = context.state.options.maxButtonsPerMessage;
  if (max !== null && buttons.length > max) problems.push(`${path} has ${buttons.length} buttons; the limit is ${max}`);
  buttons.forEach((button, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(button)) return problems.push(`${at} must be an object`);
    const type = String(button.type);
    if (!BUTTON_TYPES.includes(type)) return problems.push(`${at}.type ${JSON.stringify(button.type)} is not a known button type`);
    if (!['share', 'buy'].includes(type) && !isText(button.caption)) problems.push(`${at}.caption is required`);
    if (type === 'url' && !isText(button.url)) problems.push(`${at}.url is required`);
    if (type === 'url' && button.webview_size !== undefined && !['full', 'medium', 'compact'].includes(String(button.webview_size)))
      problems.push(`${at}.webview_size must be full, medium or compact`);
    if (type === 'call' && !isText(button.phone)) problems.push(`${at}.phone is required`);
    problems.push(...targetViolations(button, type, at, context));
    if (button.actions !== undefined) {
      if (!BUTTONS_WITH_ACTIONS.includes(type)) problems.push(`${at}: only url, flow and node buttons may carry actions`);
      else if (Array.isArray(button.actions)) button.actions.forEach((action, j) => problems.push(...actionViolations(action, `${at}.actions[${j}]`, context)));
      else problems.push(`${at}.actions must be an array`);
    }
  });
  return problems;
}

function quickReplyViolations(reply: unknown, path: string, context: BlockContext): string[] {
  if (!isObject(reply)) return [`${path} must be an object`];
  const type = String(reply.type);
  if (!QUICK_REPLY_TYPES.includes(type)) return [`${path}.type ${JSON.stringify(reply.type)} is not a known quick reply type`];
  return [...(isText(reply.caption) ? [] : [`${path}.caption is required`]), ...targetViolations(reply, type, path, context)];
}

/** Shared by buttons and quick replies: flow/node targets and dynamic_block_callback URLs. */
function targetViolations(item: Record<string, unknown>, type: string, path: string, context: BlockContext): string[] {
  if (type === 'flow') {
    if (!isText(item.target)) return [`${path}.target (flow ns) is required`];
    if (!context.state.flows.some((f) => f.ns === item.target)) return [`${path}.target "${String(item.target)}" is not a flow of this page`];
  }
  if (type === 'node') {
    if (context.viaPublicApi) return [`${path}: node targets cannot be used through the public API`];
    if (!isText(item.target)) return [`${path}.target (node name) is required`];
  }
  if (type === 'dynamic_block_callback') {
    if (typeof item.url !== 'string' || !item.url.startsWith('https://')) return [`${path}.url must be an https:// URL`];
    if (item.method !== undefined && !['get', 'post', 'put', 'delete', 'patch'].includes(String(item.method).toLowerCase())) return [`${path}.method is not an HTTP method`];
  }
  return [];
}

function actionViolations(action: unknown, path: string, context: BlockContext): string[] {
  if (!isObject(action)) return [`${path} must be an object`];
  const kind = String(action.action);
  if (!ACTION_TYPES.includes(kind)) return [`${path}.action ${JSON.stringify(action.action)} is not a known action (${ACTION_TYPES.join(', ')})`];
  if (kind === 'add_tag' || kind === 'remove_tag') {
    if (!isText(action.tag_name)) return [`${path}.tag_name is required`];
    return context.state.tagByName(String(action.tag_name)) ? [] : [`${path}: tag "${String(action.tag_name)}" does not exist in the bot`];
  }
  if (!isText(action.field_name)) return [`${path}.field_name is required`];
  const field = context.state.fieldByName(String(action.field_name));
  if (!field) return [`${path}: field "${String(action.field_name)}" does not exist in the bot`];
  if (kind === 'set_field_value') {
    if (!('value' in action)) return [`${path}.value is required`];
    const problem = fieldValueProblem(field, action.value);
    if (problem) return [`${path}: ${problem}`];
  }
  return [];
}

export interface AppliedAction {
  action: string;
  target: string;
  value?: unknown;
}

/** Performs a validated block's top-level actions on the subscriber, as ManyChat does on delivery. */
export function applyActions(state: ManyChatState, subscriber: Subscriber, actions: unknown): AppliedAction[] {
  if (!Array.isArray(actions)) return [];
  return actions.map((action: Record<string, unknown>) => {
    const kind = String(action.action);
    if (kind === 'add_tag' || kind === 'remove_tag') {
      const tag = state.tagByName(String(action.tag_name))!;
      subscriber.tagIds = subscriber.tagIds.filter((id) => id !== tag.id);
      if (kind === 'add_tag') subscriber.tagIds.push(tag.id);
      return { action: kind, target: tag.name };
    }
    const field = state.fieldByName(String(action.field_name))!;
    const value = kind === 'set_field_value' ? action.value : null;
    state.setFieldValue(subscriber, field, value);
    return { action: kind, target: field.name, value };
  });
}
