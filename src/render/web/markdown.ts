/**
 * Context and Impact as HTML: the agent writes standard Markdown, markdown-it renders it with raw HTML turned off
 * (`<script>` or `<img onerror>` in the text comes out as text), images off (a question must not make the page load
 * anything), and links only to `http:`, `https:` and `mailto:` (anything else, `javascript:` included, stays text),
 * opened in a new tab with `rel="noopener noreferrer"`. Pure.
 */
import MarkdownIt from 'markdown-it';
import { SafeHtml } from './html.js';

const SAFE_LINK = /^(?:https?:|mailto:)/i;

function createRenderer(): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
  md.disable(['image']);
  // markdown-it calls this with the normalised href of every link and autolink; false leaves the source as text.
  md.validateLink = (url: string) => SAFE_LINK.test(url.trim());
  md.renderer.rules.link_open = (tokens, index, options, _env, self) => {
    const token = tokens[index];
    if (token) {
      token.attrSet('target', '_blank');
      token.attrSet('rel', 'noopener noreferrer');
    }
    return self.renderToken(tokens, index, options);
  };
  return md;
}

const renderer = createRenderer();

/** `markdown` rendered to safe HTML (see the module comment for what is allowed). */
export function renderMarkdown(markdown: string): SafeHtml {
  return new SafeHtml(renderer.render(markdown));
}
