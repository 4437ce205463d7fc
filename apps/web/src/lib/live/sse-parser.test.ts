import { describe, expect, it } from 'vitest';
import { type SseMessage, SseParser } from './sse-parser';

function parse(...chunks: string[]) {
  const messages: SseMessage[] = [];
  const parser = new SseParser((message) => messages.push(message));
  for (const chunk of chunks) parser.push(chunk);
  return { messages, parser };
}

describe('SseParser', () => {
  it('dispatches an event on the blank line, with its data, type and id', () => {
    const { messages, parser } = parse('id: 7\nevent: live\ndata: {"type":"deposit","id":1,"status":"pending"}\n\n');
    expect(messages).toEqual([{ id: '7', event: 'live', data: '{"type":"deposit","id":1,"status":"pending"}' }]);
    expect(parser.lastEventId).toBe('7');
  });

  it('defaults the type to "message" and joins data lines with newlines', () => {
    const { messages } = parse('data: a\ndata:b\ndata\n\n');
    expect(messages).toEqual([{ id: '', event: 'message', data: 'a\nb\n' }]);
  });

  it('accepts LF, CRLF and CR line ends, also when CRLF is split across chunks', () => {
    expect(parse('data: x\r\n\r\n').messages.map((m) => m.data)).toEqual(['x']);
    const cr = parse('data: x\r\rdata: y\r\r');
    // The last CR might be half of a CRLF until more text or the end arrives.
    cr.parser.end();
    expect(cr.messages.map((m) => m.data)).toEqual(['x', 'y']);
    const split = parse('data: x\r', '\n\r', '\n');
    expect(split.messages.map((m) => m.data)).toEqual(['x']);
  });

  it('assembles events split anywhere across chunks', () => {
    const text = 'id: 42\ndata: {"type":"withdraw","id":9,"status":"queued"}\n\n';
    for (let cut = 1; cut < text.length; cut += 1) {
      const { messages } = parse(text.slice(0, cut), text.slice(cut));
      expect(messages, `cut at ${cut}`).toEqual([{ id: '42', event: 'message', data: '{"type":"withdraw","id":9,"status":"queued"}' }]);
    }
  });

  it('ignores comments (keep-alives), unknown fields and events without data', () => {
    const { messages, parser } = parse(': ping\n\nfoo: bar\n\nid: 3\n\nevent: x\n\n');
    expect(messages).toEqual([]);
    // An id without data still moves the resume point.
    expect(parser.lastEventId).toBe('3');
  });

  it('keeps the last id for later events and ignores ids containing NUL', () => {
    const { messages, parser } = parse('id: 5\ndata: a\n\ndata: b\n\nid: 6\u0000\ndata: c\n\n');
    expect(messages.map((m) => m.id)).toEqual(['5', '5', '5']);
    expect(parser.lastEventId).toBe('5');
  });

  it('removes exactly one space after the colon', () => {
    expect(parse('data:  two\n\n').messages[0]?.data).toBe(' two');
  });

  it('reads retry only when it is all digits', () => {
    expect(parse('retry: 2500\n').parser.retry).toBe(2500);
    expect(parse('retry: 2s\n').parser.retry).toBeNull();
  });

  it('drops an event the stream cut off before its blank line', () => {
    const { messages, parser } = parse('data: whole\n\ndata: partial\n');
    parser.end();
    parser.push('\n');
    expect(messages.map((m) => m.data)).toEqual(['whole']);
  });
});
