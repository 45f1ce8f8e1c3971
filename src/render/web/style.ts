/**
 * The web inbox's stylesheet, served as a static asset (`WEB_ROUTES.style`) so the page's Content-Security-Policy
 * can forbid inline styles. Light and dark follow the system. Every text colour keeps WCAG AA's 4.5:1 on the
 * backgrounds it is drawn on (test/surfaces/web/accessibility.test.ts runs axe-core over both schemes).
 */
export const INBOX_STYLESHEET = `
:root {
  color-scheme: light dark;
  --bg: #f5f6f8; --card: #ffffff; --text: #1d2129; --muted: #5f6b7a; --line: #dfe3e8;
  --accent: #2563eb; --accent-text: #ffffff; --red: #c0271b; --red-bg: #fdecea; --red-text: #ffffff;
  --green: #12703a; --green-bg: #e7f6ec;
  --amber: #b54708; --amber-bg: #fef4e6; --chip: #eef1f5; --code: #f0f2f5;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #14171c; --card: #1d2128; --text: #e6e9ee; --muted: #9aa4b2; --line: #2e343d;
    --accent: #4f8cff; --accent-text: #0b1220; --red: #ff6b5e; --red-bg: #3a1d1b; --red-text: #0b1220;
    --green: #4cc27a; --green-bg: #17321f;
    --amber: #f5a524; --amber-bg: #3a2a12; --chip: #272c35; --code: #262b33;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
button, input, select, textarea { font: inherit; color: inherit; }
.top { display: flex; align-items: center; justify-content: space-between; gap: 1rem;
  max-width: 60rem; margin: 0 auto; padding: 1.25rem 1rem 0.5rem; }
.brand { display: flex; align-items: center; gap: 0.75rem; }
.logo { color: var(--accent); flex: none; }
.login .logo { display: block; margin-bottom: 0.5rem; }
h1 { margin: 0; font-size: 1.35rem; letter-spacing: -0.01em; }
.sub { margin: 0; color: var(--muted); font-size: 0.9rem; }
.live { font-size: 0.8rem; color: var(--muted); border: 1px solid var(--line); border-radius: 999px; padding: 0.15rem 0.6rem; white-space: nowrap; }
.live[data-live="live"] { color: var(--green); border-color: var(--green); }
.live[data-live="live"]::before { content: "● "; }
.live[data-live="down"] { color: var(--amber); border-color: var(--amber); }
main { max-width: 60rem; margin: 0 auto; padding: 0 1rem 3rem; }
.flash { max-width: 58rem; margin: 0.5rem auto; padding: 0.55rem 0.9rem; border-radius: 8px; background: var(--chip); }
.flash-ok { background: var(--green-bg); color: var(--green); }
.flash-warn { background: var(--amber-bg); color: var(--amber); }
.toolbar { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; align-items: center; gap: 0.75rem;
  padding: 0.75rem 0; background: var(--bg); border-bottom: 1px solid var(--line); margin-bottom: 1rem; }
.filters { display: inline-flex; background: var(--chip); border-radius: 8px; padding: 3px; }
.filter { text-decoration: none; color: var(--muted); padding: 0.3rem 0.8rem; border-radius: 6px; font-weight: 500; }
.filter:hover { color: var(--text); }
.filter.is-current { background: var(--card); color: var(--text); box-shadow: 0 1px 2px rgba(0,0,0,.12); }
.count { display: inline-block; min-width: 1.4em; text-align: center; font-size: 0.8rem; padding: 0 0.35em;
  border-radius: 999px; background: var(--line); color: var(--text); }
.project-filter label { color: var(--muted); font-size: 0.9rem; }
.project-filter select { margin-left: 0.35rem; padding: 0.3rem 0.5rem; border: 1px solid var(--line); border-radius: 6px; background: var(--card); max-width: 16rem; }
.spacer { flex: 1; }
button { cursor: pointer; border: 1px solid var(--line); background: var(--card); border-radius: 7px; padding: 0.4rem 0.95rem; font-weight: 500; }
button:hover:not(:disabled) { border-color: var(--muted); }
button:disabled { cursor: default; opacity: 0.55; }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-text); }
button.danger { background: var(--red); border-color: var(--red); color: var(--red-text); }
.list { display: flex; flex-direction: column; gap: 1rem; }
.list-title { margin: 1.75rem 0 0; font-size: 0.85rem; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); }
.empty { text-align: center; color: var(--muted); padding: 2.5rem 1rem; background: var(--card); border: 1px dashed var(--line); border-radius: 12px; margin: 0; }
.card { background: var(--card); border: 1px solid var(--line); border-left: 4px solid var(--green); border-radius: 12px;
  padding: 1rem 1.25rem; box-shadow: 0 1px 2px rgba(0,0,0,.04); }
.card.is-blocking { border-left-color: var(--red); }
.card.is-closed { border-left-color: var(--line); }
.card.is-closed .question { color: var(--muted); }
.asked-before { margin: 0.4rem 0 0; padding: 0; list-style: none; font-size: 0.85rem; color: var(--muted); }
.asked-before li::before { content: "↩ "; }
.card-head { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem 0.6rem; font-size: 0.85rem; color: var(--muted); }
.badge { font-weight: 700; font-size: 0.72rem; letter-spacing: 0.05em; padding: 0.12rem 0.5rem; border-radius: 5px; }
.badge-blocking { background: var(--red-bg); color: var(--red); }
.badge-waiting { background: var(--green-bg); color: var(--green); font-weight: 600; letter-spacing: 0; font-size: 0.78rem; }
.project { font-weight: 600; color: var(--text); }
.ticket { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--chip); padding: 0 0.4rem; border-radius: 4px; }
.qid { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.state { margin-left: auto; font-size: 0.75rem; font-weight: 600; padding: 0.1rem 0.55rem; border-radius: 999px; background: var(--chip); }
.state-pending { display: none; }
.state-answered { background: var(--amber-bg); color: var(--amber); }
.state-delivered { background: var(--green-bg); color: var(--green); }
.question { font-size: 1.1rem; margin: 0.45rem 0 0.35rem; line-height: 1.35; overflow-wrap: anywhere; }
.text h3 { margin: 0.6rem 0 0.1rem; font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); }
.md { overflow-wrap: anywhere; }
.md > :first-child { margin-top: 0; }
.md > :last-child { margin-bottom: 0; }
.md p, .md ul, .md ol, .md pre, .md blockquote, .md table { margin: 0.3rem 0; }
.md h1, .md h2, .md h3, .md h4, .md h5, .md h6 { font-size: 1em; margin: 0.5rem 0 0.2rem; }
.md code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.88em; background: var(--code); padding: 0.05rem 0.3rem; border-radius: 4px; }
.md pre { background: var(--code); padding: 0.6rem 0.8rem; border-radius: 8px; overflow-x: auto; }
.md pre code { background: none; padding: 0; }
.md blockquote { border-left: 3px solid var(--line); padding-left: 0.75rem; color: var(--muted); }
.md a { color: var(--accent); }
.picker { border: 0; padding: 0; margin: 0.85rem 0 0; display: grid; gap: 0.35rem; }
.picker legend { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); margin-bottom: 0.3rem; padding: 0; }
.option { display: flex; gap: 0.6rem; align-items: flex-start; padding: 0.45rem 0.7rem; border: 1px solid var(--line); border-radius: 8px; cursor: pointer; }
.option:hover { border-color: var(--muted); }
.option:has(input:checked) { border-color: var(--accent); background: color-mix(in srgb, var(--accent) 8%, var(--card)); }
.option input { margin: 0.25rem 0 0; accent-color: var(--accent); }
.option-text { display: flex; flex-direction: column; }
.option-label { font-weight: 500; }
.is-recommended .option-label { font-weight: 600; }
.option-desc { font-size: 0.85rem; color: var(--muted); }
.notes { display: block; margin-top: 0.75rem; }
.notes-label { display: block; font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); margin-bottom: 0.25rem; }
.notes textarea { width: 100%; resize: vertical; min-height: 2.6rem; padding: 0.45rem 0.6rem; border: 1px solid var(--line); border-radius: 8px; background: var(--card); }
.notes textarea:focus, select:focus { outline: 2px solid var(--accent); outline-offset: -1px; }
.card-actions { display: flex; flex-wrap: wrap; align-items: center; gap: 0.6rem; margin-top: 0.75rem; }
.ready { font-size: 0.85rem; font-weight: 600; display: inline-flex; align-items: center; gap: 0.4rem; }
.ready::before { content: ""; width: 0.6rem; height: 0.6rem; border-radius: 50%; background: currentColor; }
.ready-pick-one::before { background: transparent; border: 2px solid currentColor; width: 0.45rem; height: 0.45rem; }
.ready-ready { color: var(--green); }
.ready-pick-one { color: var(--muted); }
.ready-needs-note { color: var(--amber); }
.remove { position: relative; }
.remove summary { list-style: none; cursor: pointer; color: var(--muted); font-size: 0.9rem; padding: 0.4rem 0.5rem; border-radius: 7px; }
.remove summary::-webkit-details-marker { display: none; }
.remove summary:hover { color: var(--red); }
.remove[open] summary { color: var(--red); }
.confirm { position: absolute; right: 0; bottom: calc(100% + 0.4rem); z-index: 3; width: 19rem; display: flex; flex-direction: column; gap: 0.6rem;
  background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 0.8rem; box-shadow: 0 8px 24px rgba(0,0,0,.15); font-size: 0.9rem; }
.confirm button { align-self: flex-end; }
.outcome { margin-top: 0.5rem; }
.outcome p { margin: 0.2rem 0; }
.answer-notes { margin: 0.35rem 0; padding: 0.35rem 0.75rem; border-left: 3px solid var(--line); white-space: pre-wrap; overflow-wrap: anywhere; }
.delivery { color: var(--muted); font-size: 0.9rem; }
.delivery.is-delivered { color: var(--green); font-weight: 500; }
.who strong { font-weight: 600; }
.more { margin-top: 0.4rem; font-size: 0.9rem; }
.more summary { cursor: pointer; color: var(--muted); }
.login { max-width: 26rem; margin: 4rem auto; background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 1.5rem; }
.login form { display: flex; flex-direction: column; gap: 0.75rem; }
.login input { width: 100%; padding: 0.45rem 0.6rem; border: 1px solid var(--line); border-radius: 8px; background: var(--card); margin-top: 0.25rem; }
.tabs { max-width: 60rem; margin: 0 auto; padding: 0 1rem; display: flex; gap: 0.25rem; border-bottom: 1px solid var(--line); }
.tab { text-decoration: none; color: var(--muted); padding: 0.45rem 0.9rem; border-bottom: 2px solid transparent; margin-bottom: -1px; font-weight: 500; }
.tab:hover { color: var(--text); }
.tab.is-current { color: var(--text); border-bottom-color: var(--accent); }
.visually-hidden { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.chart-panel { margin: 1rem 0 0; background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 0.75rem 1.25rem 1rem; }
.chart-panel .list-title { margin: 0 0 0.4rem; }
.chart-panel .empty { padding: 1.25rem 1rem; }
.chart-figures { list-style: none; margin: 0 0 0.4rem; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3rem 1.5rem; font-size: 0.9rem; }
.swatch { display: inline-block; width: 0.75rem; height: 0.75rem; border-radius: 2px; margin-right: 0.4rem; vertical-align: -0.05rem; }
.swatch-blocking { background: var(--red); }
.swatch-canWait { background: var(--green); }
svg.chart { display: block; width: 100%; height: auto; max-width: 40rem; }
svg.chart text { font-size: 11px; fill: var(--muted); }
svg.chart .chart-grid { stroke: var(--line); }
svg.chart .chart-baseline { stroke: var(--muted); }
svg.chart .bar-blocking { fill: var(--red); }
svg.chart .bar-canWait { fill: var(--green); }
svg.chart .whisker-blocking { stroke: var(--red); }
svg.chart .whisker-canWait { stroke: var(--green); }
.chart-note { color: var(--muted); font-size: 0.8rem; margin-top: 0.3rem; }
.search { margin-top: 1rem; }
.search input[type="search"] { margin-left: 0.35rem; padding: 0.3rem 0.5rem; border: 1px solid var(--line); border-radius: 6px; background: var(--card); width: 16rem; max-width: 60vw; }
.search label { color: var(--muted); font-size: 0.9rem; }
.clear { color: var(--muted); font-size: 0.9rem; }
.result-count { color: var(--muted); font-size: 0.9rem; margin: 0 0 0.75rem; }
ol.decisions { list-style: none; margin: 0; padding: 0; }
.card.decision.is-closed .question { color: var(--text); }
.times { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 0.75rem; margin: 0.5rem 0 0; font-size: 0.9rem; }
.times dt { color: var(--muted); }
.times dd { margin: 0; }
.pager { display: flex; justify-content: space-between; align-items: center; margin-top: 1.25rem; }
.page-link { color: var(--accent); text-decoration: none; font-weight: 500; }
.page-link.is-off { color: var(--muted); opacity: 0.6; }
.page-of { color: var(--muted); font-size: 0.9rem; }
[hidden] { display: none !important; }
/* A clear focus ring wherever the keyboard is (cards, tabs, options, buttons, links). */
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.card:focus-visible { outline: 3px solid var(--accent); outline-offset: 3px; box-shadow: 0 0 0 6px color-mix(in srgb, var(--accent) 18%, transparent); }
.option:has(input:focus-visible) { outline: 3px solid var(--accent); outline-offset: 1px; }
.top-side { display: flex; align-items: center; gap: 0.6rem; }
.sign-out { margin: 0; }
.keys-button { font-size: 0.8rem; padding: 0.15rem 0.6rem; border-radius: 999px; color: var(--muted); }
kbd { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.8em; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: 0 0.35em; background: var(--chip); color: var(--text); }
.option .key { margin-left: auto; align-self: center; color: var(--muted); }
.option-row { display: grid; gap: 0.25rem; }
.choice-notes { display: block; margin: 0 0 0.2rem 2.2rem; }
.choice-notes-label { display: block; font-size: 0.75rem; color: var(--muted); }
.choice-notes textarea { width: 100%; resize: vertical; min-height: 2rem; padding: 0.3rem 0.55rem; border: 1px solid var(--line); border-radius: 7px; background: var(--card); }
.choice-notes textarea:focus { outline: 2px solid var(--accent); outline-offset: -1px; }
.set-size { font-size: 0.75rem; font-weight: 600; padding: 0.05rem 0.5rem; border-radius: 999px; background: var(--chip); color: var(--text); }
.member-tabs { display: flex; flex-wrap: wrap; gap: 0.3rem; margin: 0.9rem 0 0; border-bottom: 1px solid var(--line); }
.member-tab { display: inline-flex; align-items: center; gap: 0.45rem; border: 1px solid var(--line); border-bottom: 0; border-radius: 8px 8px 0 0; background: var(--chip); padding: 0.35rem 0.75rem; margin-bottom: -1px; color: var(--muted); }
.member-tab[aria-selected="true"] { background: var(--card); color: var(--text); border-color: var(--line); box-shadow: inset 0 3px 0 var(--accent); }
.tab-ref { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.8rem; }
.tab-topic { font-weight: 600; }
.tab-blocking { font-size: 0.7rem; font-weight: 700; color: var(--red); text-transform: uppercase; letter-spacing: 0.04em; }
.member-tab .ready { font-size: 0.75rem; }
.member { padding-top: 0.6rem; }
.member-head { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0; font-size: 0.85rem; color: var(--muted); }
.member-head .topic { font-weight: 600; color: var(--text); }
.member .question { font-size: 1.05rem; margin: 0.35rem 0 0.2rem; }
.text h4 { margin: 0.5rem 0 0.1rem; font-size: 0.72rem; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); }
.member-texts h3 { margin: 0.8rem 0 0; font-size: 0.85rem; }
.set-progress { font-size: 0.85rem; font-weight: 600; }
.set-progress.ready-ready { color: var(--green); }
.set-progress.ready-pick-one { color: var(--muted); }
.set-progress.ready-needs-note { color: var(--amber); }
button[aria-disabled="true"] { opacity: 0.55; }
.notice { margin: 0; flex-basis: 100%; order: 10; padding: 0.4rem 0.7rem; border-radius: 7px; background: var(--amber-bg); color: var(--amber); font-size: 0.9rem; }
.review { margin-top: 0.75rem; border: 2px solid var(--accent); border-radius: 10px; padding: 0.75rem 1rem; }
.review-title { margin: 0 0 0.4rem; font-size: 0.95rem; }
.review-lines { margin: 0; padding-left: 1.2rem; display: grid; gap: 0.5rem; }
.review-head { margin: 0; display: flex; gap: 0.5rem; align-items: baseline; }
.review-lines .answer { margin: 0.1rem 0; }
.review-actions { display: flex; justify-content: flex-end; gap: 0.6rem; margin-top: 0.6rem; }
.choice-notes-list { margin: 0.2rem 0 0.35rem; padding-left: 1.2rem; }
.choice-notes-list .choice { font-weight: 600; }
.choice-note { margin: 0.15rem 0 0.3rem; padding: 0.2rem 0.65rem; border-left: 3px solid var(--line); white-space: pre-wrap; overflow-wrap: anywhere; color: var(--muted); }
.member-answers { margin: 0.3rem 0; padding-left: 1.2rem; display: grid; gap: 0.5rem; }
.member-question { margin: 0.1rem 0; color: var(--muted); }
.keys-help { max-width: 34rem; width: calc(100% - 2rem); border: 1px solid var(--line); border-radius: 12px; padding: 1.1rem 1.35rem; background: var(--card); color: var(--text); box-shadow: 0 16px 48px rgba(0,0,0,.25); }
.keys-help::backdrop { background: rgba(0,0,0,.35); }
.keys-help h2 { margin: 0 0 0.4rem; font-size: 1.1rem; }
.keys-intro { margin: 0 0 0.6rem; color: var(--muted); font-size: 0.9rem; }
.keys-list { display: grid; grid-template-columns: max-content 1fr; gap: 0.35rem 1rem; margin: 0; }
.keys-list dt { display: flex; gap: 0.25rem; align-items: center; white-space: nowrap; }
.keys-list dd { margin: 0; }
.keys-to { color: var(--muted); font-size: 0.85rem; }
.keys-actions { display: flex; justify-content: flex-end; margin-top: 0.9rem; }
`;
