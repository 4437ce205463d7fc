/**
 * An incremental parser for a text/event-stream body (the WHATWG "event stream
 * interpretation"), fed decoded text as it arrives. EventSource cannot send the X-Token
 * header, so the app reads GET /api/events with fetch and parses the stream itself.
 */

export interface SseMessage {
  /** The event's type ("message" when the stream names none). */
  event: string;
  /** The data lines joined with "\n". */
  data: string;
  /** The last event ID at the time of dispatch (kept across events, as the spec says). */
  id: string;
}

export class SseParser {
  /** What the stream last set with an `id:` field; sent back as Last-Event-ID on reconnect. */
  lastEventId = '';
  /** Reconnection delay the server asked for with `retry:`, in ms; null until it does. */
  retry: number | null = null;

  private buffer = '';
  private dataLines: string[] | null = null;
  private eventType = '';

  constructor(private readonly onMessage: (message: SseMessage) => void) {}

  /** Feeds the next piece of decoded text; complete lines are processed at once. */
  push(text: string): void {
    this.buffer += text;
    let start = 0;
    for (;;) {
      const cr = this.buffer.indexOf('\r', start);
      const lf = this.buffer.indexOf('\n', start);
      if (cr === -1 && lf === -1) break;
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      // A CR at the very end may be the first half of a CRLF split across chunks.
      if (end === cr && cr === this.buffer.length - 1) break;
      const next = end === cr && this.buffer[cr + 1] === '\n' ? cr + 2 : end + 1;
      this.line(this.buffer.slice(start, end));
      start = next;
    }
    this.buffer = this.buffer.slice(start);
  }

  /**
   * The stream has ended. A trailing lone CR still ends its line; an event without its
   * closing blank line is discarded, as the spec requires.
   */
  end(): void {
    if (this.buffer.endsWith('\r')) this.push('\n');
    this.buffer = '';
    this.dataLines = null;
    this.eventType = '';
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return; // comment, e.g. a keep-alive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.dataLines ??= [];
        this.dataLines.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number.parseInt(value, 10);
        break;
      default:
        // Unknown fields are ignored.
        break;
    }
  }

  private dispatch(): void {
    const lines = this.dataLines;
    const event = this.eventType || 'message';
    this.dataLines = null;
    this.eventType = '';
    if (lines === null) return;
    this.onMessage({ event, data: lines.join('\n'), id: this.lastEventId });
  }
}
