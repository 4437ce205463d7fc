import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.ts';

const UPLOAD = `/uploads/${'a'.repeat(64)}.png`;

describe('Markdown rendering', () => {
  it('renders ordinary Markdown', () => {
    expect(renderMarkdown('# Title\n\n**bold** and *em*\n\n- one\n- two')).toBe(
      '<h1>Title</h1>\n<p><strong>bold</strong> and <em>em</em></p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n',
    );
  });

  it('escapes raw HTML: script tags, event handlers, iframes', () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\nhi <b onmouseover="x()">b</b>');
    expect(html).not.toMatch(/<script|<img|<b /i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('keeps http(s), mailto and in-app links; external ones open apart without referrer', () => {
    expect(renderMarkdown('[site](https://example.com/a?b=1)')).toBe(
      '<p><a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer nofollow">site</a></p>\n',
    );
    expect(renderMarkdown('[mail](mailto:help@coffer.test)')).toBe('<p><a href="mailto:help@coffer.test">mail</a></p>\n');
    expect(renderMarkdown('[wallet](/wallet)')).toBe('<p><a href="/wallet">wallet</a></p>\n');
    expect(renderMarkdown('see https://coffer.test/x')).toContain(
      '<a href="https://coffer.test/x" target="_blank" rel="noopener noreferrer nofollow">',
    );
  });

  it('renders every other link as its text', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      'vbscript:msgbox(1)',
      '//evil.example/x',
      'file:///etc/passwd',
      'relative/path',
      '#frag',
    ]) {
      const html = renderMarkdown(`[click](${href})`);
      expect(html, href).not.toContain('<a');
      expect(html, href).toContain('[click]');
    }
    expect(renderMarkdown('<javascript:alert(1)>')).not.toContain('<a');
    expect(renderMarkdown('[x](/\\evil.example)')).not.toContain('href="/\\');
  });

  it('keeps images only from https or uploads; others become their alt text', () => {
    expect(renderMarkdown('![pic](https://img.example/a.png)')).toBe(
      '<p><img src="https://img.example/a.png" alt="pic" loading="lazy"></p>\n',
    );
    expect(renderMarkdown(`![up](${UPLOAD})`)).toContain(`<img src="${UPLOAD}" alt="up"`);
    for (const src of ['http://img.example/a.png', '/wallet', '/uploads/../x.png', 'data:image/png;base64,AAAA', 'javascript:alert(1)']) {
      const html = renderMarkdown(`![alt <b>](${src})`);
      expect(html, src).not.toContain('<img');
      expect(html, src).not.toContain('<b>');
    }
  });
});
