import { describe, expect, it } from 'vitest';
import { DYNAMIC_BLOCK_LIMITS, dynamicBlock, dynamicBlockSchema, splitText } from '../src/dynamic-block';

const button = (n: number) => ({ type: 'url' as const, caption: `Buy ${n}`, url: `https://shop.example.mn/${n}` });

describe('dynamicBlock: every reply within ManyChat\'s limits', () => {
  it('keeps a short text as one message with its buttons', () => {
    const block = dynamicBlock([{ text: 'Netflix — 36,000₮', buttons: [button(1)] }]);
    expect(block).toEqual({ version: 'v2', content: { messages: [{ type: 'text', text: 'Netflix — 36,000₮', buttons: [button(1)] }] } });
    expect(dynamicBlockSchema.safeParse(block).success).toBe(true);
  });

  it('splits a long text at word breaks into messages of at most 2,000 characters, the buttons under the last', () => {
    const words = Array.from({ length: 900 }, (_, n) => `word${n}`).join(' ');
    const block = dynamicBlock([{ text: words, buttons: [button(1)] }]);
    const texts = block.content.messages.map((message) => message.text);
    expect(texts.length).toBeGreaterThan(2);
    expect(texts.every((text) => text.length <= DYNAMIC_BLOCK_LIMITS.textCharacters)).toBe(true);
    expect(texts.join(' ')).toBe(words);
    expect(block.content.messages.map((message) => message.buttons?.length ?? 0)).toEqual([...Array(texts.length - 1).fill(0), 1]);
    expect(dynamicBlockSchema.safeParse(block).success).toBe(true);
  });

  it('cuts a word longer than a message, keeps at most 10 messages (the last ending in an ellipsis) and 3 buttons each', () => {
    expect(splitText('x'.repeat(4_500)).map((piece) => piece.length)).toEqual([2000, 2000, 500]);
    const block = dynamicBlock(Array.from({ length: 14 }, (_, n) => ({ text: `message ${n}`, buttons: [button(1), button(2), button(3), button(4)] })));
    expect(block.content.messages).toHaveLength(DYNAMIC_BLOCK_LIMITS.messages);
    expect(block.content.messages.at(-1)!.text).toBe('message 9…');
    expect(block.content.messages.every((message) => message.buttons!.length === DYNAMIC_BLOCK_LIMITS.buttons)).toBe(true);
    expect(dynamicBlockSchema.safeParse(block).success).toBe(true);
  });

  it('sends nothing for no messages (an empty reply)', () => {
    expect(dynamicBlock([]).content.messages).toEqual([]);
  });
});
