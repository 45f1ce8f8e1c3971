/**
 * The web inbox's client script, served as a static asset (`WEB_ROUTES.script`; no build step). It keeps the
 * server-rendered page live and sends what the person does; it never builds markup from data:
 * - every change (a pick, notes, Send, Send N, Remove, a filter, a page) is a JSON POST or a new query, then the
 *   inbox fragment (one page: its cost is bounded by the page, not the store) is fetched again and swapped in whole
 *   (the server escaped every text in it);
 * - server-sent events (`WEB_ROUTES.events`) say that a question changed; the fragment is fetched again, at most one
 *   fetch queued at a time however many events arrive meanwhile;
 * - all of it runs in one queue, so a refresh never overtakes the draft it should show;
 * - a redraw keeps the focused field (and caret), notes typed but not yet saved, and open folds (by element id);
 * - outcome texts from the server are shown with `textContent`; the tab title counts what waits (`pageTitle`).
 * Plain ES2017 for any current browser; the route table is the only thing put into it.
 */
import { WEB_ROUTES } from './routes.js';

const SCRIPT = `
(function (ROUTES) {
  'use strict';
  var root = document.getElementById('inbox');
  var flashBox = document.getElementById('flash');
  var live = document.getElementById('live');
  if (!root) return;

  var queue = Promise.resolve();
  var refreshQueued = false;
  var notesTimers = {};
  var unsavedNotes = {};

  function run(task) {
    queue = queue.then(task).catch(function () {
      flash('The inbox did not answer; try again.', false);
    });
    return queue;
  }

  function flash(text, ok) {
    if (!flashBox) return;
    flashBox.textContent = text;
    flashBox.className = 'flash ' + (ok ? 'flash-ok' : 'flash-warn');
    flashBox.hidden = text === '';
  }

  function signedOut(response) {
    if (response.status !== 401) return false;
    location.reload();
    return true;
  }

  function refreshSoon() {
    if (refreshQueued) return;
    refreshQueued = true;
    run(function () {
      refreshQueued = false;
      return refresh();
    });
  }

  function refresh() {
    return fetch(ROUTES.inbox + location.search, {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { Accept: 'text/html' }
    }).then(function (response) {
      if (signedOut(response)) return undefined;
      if (!response.ok) throw new Error('inbox ' + response.status);
      return response.text().then(swap);
    });
  }

  function swap(markup) {
    var active = document.activeElement;
    var focusId = active && active.id && root.contains(active) ? active.id : null;
    var caret = active && active.tagName === 'TEXTAREA' ? [active.selectionStart, active.selectionEnd] : null;
    var open = [];
    root.querySelectorAll('details[open][id]').forEach(function (details) {
      open.push(details.id);
    });
    // Server-rendered markup: every text in it was escaped there.
    var template = document.createElement('template');
    template.innerHTML = markup;
    root.replaceChildren(template.content);
    var toolbar = root.querySelector('[data-waiting]');
    var waiting = toolbar ? Number(toolbar.getAttribute('data-waiting')) : 0;
    document.title = waiting > 0 ? '(' + waiting + ') ask-later inbox' : 'ask-later inbox';
    open.forEach(function (id) {
      var details = document.getElementById(id);
      if (details) details.open = true;
    });
    Object.keys(unsavedNotes).forEach(function (ref) {
      var area = root.querySelector('textarea[data-notes="' + ref + '"]');
      if (area) area.value = unsavedNotes[ref];
    });
    if (focusId) {
      var element = document.getElementById(focusId);
      if (element) {
        element.focus();
        if (caret && element.setSelectionRange) element.setSelectionRange(caret[0], caret[1]);
      }
    }
  }

  function post(path, body) {
    return fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body)
    }).then(function (response) {
      if (signedOut(response)) return { ok: false, text: '' };
      return response.json().catch(function () {
        return { ok: false, text: 'The inbox answered ' + response.status + '.' };
      });
    });
  }

  function report(result) {
    if (result && typeof result.text === 'string' && result.text !== '') flash(result.text, result.ok === true);
  }

  function cardOf(element) {
    return element.closest('article.card[data-ref]');
  }

  function pickOf(card) {
    var choices = [];
    var other = false;
    card.querySelectorAll('.picker input:checked').forEach(function (input) {
      if (input.value === 'other') other = true;
      else choices.push(Number(input.value));
    });
    return { choices: choices, other: other };
  }

  function saveNotes(ref) {
    clearTimeout(notesTimers[ref]);
    delete notesTimers[ref];
    if (!Object.prototype.hasOwnProperty.call(unsavedNotes, ref)) return;
    run(function () {
      if (!Object.prototype.hasOwnProperty.call(unsavedNotes, ref)) return undefined;
      var text = unsavedNotes[ref];
      return post(ROUTES.draft, { ref: ref, notes: text }).then(function (result) {
        if (unsavedNotes[ref] === text) delete unsavedNotes[ref];
        if (!result.ok) report(result);
        return refresh();
      });
    });
  }

  function flushNotes() {
    Object.keys(unsavedNotes).forEach(saveNotes);
  }

  function act(path, body) {
    flushNotes();
    run(function () {
      return post(path, typeof body === 'function' ? body() : body).then(function (result) {
        report(result);
        return refresh();
      });
    });
  }

  function navigate(params) {
    var query = params.toString();
    history.replaceState(null, '', location.pathname + (query ? '?' + query : ''));
    refreshSoon();
  }

  document.addEventListener('change', function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    if (target.matches('.picker input')) {
      var card = cardOf(target);
      if (!card) return;
      var ref = card.dataset.ref;
      var pick = pickOf(card);
      run(function () {
        return post(ROUTES.draft, { ref: ref, pick: pick }).then(function (result) {
          if (!result.ok) report(result);
          return refresh();
        });
      });
    } else if (target.matches('textarea[data-notes]')) {
      saveNotes(target.dataset.notes);
    } else if (target.matches('select[data-project-filter]')) {
      var params = new URLSearchParams(location.search);
      params.delete('after');
      if (target.value) params.set('project', target.value);
      else params.delete('project');
      navigate(params);
    }
  });

  document.addEventListener('input', function (event) {
    var target = event.target;
    if (!(target instanceof Element) || !target.matches('textarea[data-notes]')) return;
    var ref = target.dataset.notes;
    unsavedNotes[ref] = target.value;
    clearTimeout(notesTimers[ref]);
    notesTimers[ref] = setTimeout(function () {
      saveNotes(ref);
    }, 400);
  });

  document.addEventListener('click', function (event) {
    var origin = event.target;
    if (!(origin instanceof Element)) return;
    var link = origin.closest('a[data-filter], a[data-page]');
    if (link && root.contains(link)) {
      event.preventDefault();
      navigate(new URL(link.href).searchParams);
      return;
    }
    var button = origin.closest('button[data-action]');
    if (!button || button.disabled) return;
    var action = button.dataset.action;
    var card = cardOf(button);
    if (action === 'send-ready') {
      button.disabled = true;
      act(ROUTES.sendReady, function () {
        var refs = [];
        root.querySelectorAll('#pending article.card[data-ref]').forEach(function (shown) {
          refs.push(shown.dataset.ref);
        });
        return { refs: refs };
      });
    } else if (action === 'send' && card) {
      button.disabled = true;
      act(ROUTES.send, { ref: card.dataset.ref, pick: pickOf(card) });
    } else if (action === 'remove' && card) {
      button.disabled = true;
      act(ROUTES.remove, { ref: card.dataset.ref });
    }
  });

  function setLive(state, text) {
    if (!live) return;
    live.dataset.live = state;
    live.textContent = text;
  }

  function connect() {
    var source = new EventSource(ROUTES.events);
    source.onopen = function () {
      setLive('live', 'live');
      // Whatever changed while the stream was down (or before it opened) shows now.
      refreshSoon();
    };
    source.onmessage = function () {
      refreshSoon();
    };
    source.onerror = function () {
      setLive('down', 'reconnecting…');
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 3000);
    };
  }
  connect();
})(__ROUTES__);
`;

/** The script, with the route table it talks to. */
export const INBOX_CLIENT_SCRIPT = SCRIPT.replace('__ROUTES__', JSON.stringify(WEB_ROUTES));
