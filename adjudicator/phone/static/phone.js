'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const body = document.body;
  let ws = null, timer = null, slow = null, idle = null, entryIdle = 0, retry = 0, view = 'connecting', waitForTouch = false;
  let maxEntry = 0, tooLong = '', before = '', eventName = '';
  // A verdict stays on screen until NEXT, even when the connection drops or the server restarts
  // (which forgets it): `kept` is then true, and `later` is the state to show after NEXT.
  let kept = false, later = null, dismissed = '', shownKey = '', holdUntil = 0, release = null;
  const VERDICT_VIEWS = ['verdict', 'verdict-held'];
  const LINES = [['recheck', 'recheck'], ['v-table', 'table'], ['mark', 'mark'], ['word', 'word'],
    ['plain', 'plain'], ['played', 'words'], ['consequence', 'consequence'], ['record', 'record'],
    ['v-lexicon', 'lexicon'], ['v-warning', 'warning'], ['secondary', 'secondary'], ['problem', 'problem']];
  // The table (and round) this page sits at, kept for the tab's life: a server that restarted
  // (and so forgot every phone) is told it again when the page reconnects, as is one after a reload.
  const SEAT = 'adjudicator-table';
  function seat() {
    try { const v = JSON.parse(sessionStorage.getItem(SEAT) || 'null'); return v && typeof v.table === 'string' ? v : null; }
    catch (err) { return null; }
  }
  function keepSeat(table, round) {
    try {
      if (table) sessionStorage.setItem(SEAT, JSON.stringify({table, round: round || ''}));
      else sessionStorage.removeItem(SEAT);
    } catch (err) { /* storage refused (a private mode): the server's memory still serves */ }
  }

  // Words typed and not yet judged, kept by the page as well as by the server: a server that
  // restarted (and so forgot them) is given them back when the page reconnects, as after a
  // dropped link, where the server still holds them. Cleared when judged or cleared on purpose.
  const TYPED = 'adjudicator-typed';
  function keptWords(table) {
    try { const v = JSON.parse(sessionStorage.getItem(TYPED) || 'null'); return v && v.table === table ? v.text : ''; }
    catch (err) { return ''; }
  }
  function keepWords(table, text) {
    try {
      if (table && text) sessionStorage.setItem(TYPED, JSON.stringify({table, text}));
      else sessionStorage.removeItem(TYPED);
    } catch (err) { /* storage refused: the server's memory still serves */ }
  }
  let seatedAt = '';  // the table of the last state shown

  function send(frame) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(frame)); }
  function setView(v) {
    const verdict = VERDICT_VIEWS.includes(v);
    view = v; body.dataset.view = v;
    for (const id of ['bar', 'foot']) $(id).inert = verdict;  // behind the verdict: out of reach
    document.querySelector('main').inert = verdict;
    if (!verdict) { say(''); shownKey = ''; kept = false; $('link').textContent = ''; $('verdict').classList.remove('kept'); }
  }
  function setText(id, text) { const e = $(id); if (e.textContent !== text) e.textContent = text; }
  // The verdict said once, whole, in reading order: one write to a live region that is always in
  // the accessibility tree (the verdict's own lines are shown, never rewritten with the same text).
  function say(text) { setText('said', text); }
  function spoken(v) {
    return LINES.filter(([id]) => id !== 'mark').map(([, key]) => v[key] || '').filter(Boolean)
      .map((line) => /[.!?:]$/.test(line) ? line : line + '.').join(' ');
  }
  function notice(title, text) {
    $('notice-title').textContent = title; $('notice-text').textContent = text; setView('notice');
  }

  function connect() {
    waitForTouch = false;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const at = seat();  // a server that forgot this phone (a restart) seats it again
    const query = at ? '?' + new URLSearchParams({table: at.table, round: at.round || ''}) : '';
    ws = new WebSocket(scheme + '//' + location.host + '/ws' + query);
    ws.onopen = () => { retry = 0; };
    ws.onmessage = (e) => {
      let m; try { m = JSON.parse(e.data); } catch (err) { return; }
      if (m.t === 'hello') hello(m); else if (m.t === 'state') show(m);
      else if (m.t === 'notice') notice(m.title, m.text);
      else if (m.t === 'judging') heard = true;
      else if (m.t === 'count' && m.table === seatedAt && lastState) {  // another phone's challenge here
        lastState.count = m.count; where(lastState);
      }
    };
    ws.onclose = (e) => {
      ws = null; clearTimeout(timer);
      if (VERDICT_VIEWS.includes(view)) keep('Connection lost: reconnecting… This verdict stays until NEXT.');
      if (e.code === 4003) { body.dataset.ready = '1'; return; }  // refused: the notice stays
      if (e.code === 4000) { notice('Opened again', 'This judge was opened again on this device.'); return; }
      if (e.code === 4001) {  // idle: a touch reconnects (a verdict on screen stays, NEXT is the touch)
        waitForTouch = true; if (!kept) notice('Paused', 'Touch the screen to carry on.'); return;
      }
      if (view !== 'notice' && !kept) { $('status').textContent = 'Connection lost: reconnecting…'; setView('connecting'); }
      if (retry >= 2) {  // the link may have been rotated: the page itself then says so (403)
        fetch('/', {cache: 'no-store'}).then((r) => { if (r.status === 403) location.reload(); }, () => {});
      }
      setTimeout(connect, Math.min(8000, 400 * 2 ** retry++));
    };
  }
  const wake = () => { if (waitForTouch && !ws) connect(); };
  document.addEventListener('pointerdown', wake);
  document.addEventListener('keydown', wake);

  function hello(m) {
    $('steps').textContent = m.steps.join('\n');
    $('hint').textContent = m.hint; $('next-hint').textContent = m.next_hint;
    $('lexicon').textContent = m.lexicon; $('warning').textContent = m.warning;
    $('device').textContent = '· ' + m.device;
    eventName = m.event || ''; $('event').textContent = eventName ? eventName + ' · ' : '';
    if (eventName) document.title = eventName + ' · Word judge';
    $('divisions').textContent = m.divisions || '';
    entryIdle = m.entry_idle || 0; maxEntry = m.max_entry || 0; tooLong = m.too_long || '';
  }

  // The verdict on screen, kept by the page itself (the server no longer holds it): its hold is
  // released on time, RECHECK (which needs the server's record of it) hidden, NEXT dismisses it.
  function keep(why) {
    kept = true; $('verdict').classList.add('kept'); setText('link', why);
    if (view === 'verdict-held') {
      clearTimeout(release);
      release = setTimeout(released, Math.max(0, holdUntil - Date.now()));
    }
  }
  function released() {
    if (view !== 'verdict-held') return;
    setView('verdict');
    $('next').focus({preventScroll: true});  // the hold is over: NEXT takes Enter and Space
  }
  function next() {
    if (!kept) { send({t: 'next'}); return; }
    dismissed = shownKey;  // a server that still shows it after a reconnect is told NEXT then
    const s = later; later = null;
    setView('connecting');
    if (s) show(s); else $('status').textContent = 'Connection lost: reconnecting…';
  }

  let lastState = null, heard = false;
  function where(s) {
    const count = s.count === null || s.count === undefined ? '' : ' · challenges here: ' + s.count;
    setText('where', 'Table ' + s.table + (s.round ? ' · Round ' + s.round : '') + count);
  }
  function key(v) { return JSON.stringify(LINES.map(([, field]) => v[field] || '')); }

  function show(s) {
    const before = view;
    if (s.view !== 'table') keepSeat(s.table, s.round); else keepSeat('');
    if (kept && !s.verdict) { later = s; if (ws) keep('Reconnected. This verdict stays until NEXT.'); return; }
    if (s.verdict && dismissed && s.view === 'verdict' && key(s.verdict) === dismissed) {
      dismissed = ''; send({t: 'next'}); return;  // NEXT was tapped while the link was down
    }
    dismissed = '';
    clearTimeout(timer); clearTimeout(slow); clearTimeout(release);
    if (s.remaining !== null && s.remaining !== undefined) {
      timer = setTimeout(() => send({t: 'expire'}), s.remaining * 1000 + 60);
    }
    if (s.view === 'table') {
      $('table-error').textContent = s.error || '';  // a table the station refused, and why
      $('where').textContent = eventName || 'Word judge';
      // Change table starts the field empty: the old number left in it with the cursor after
      // it made "2" at table 1 seat the phone at table 12 (another division, another list).
      // A table the station refused stays, all selected, so the first key replaces it.
      if (['ready', 'entry', 'verdict', 'verdict-held'].includes(before) && !s.error) $('table').value = '';
      setView('table'); $('table').focus(); $('table').select(); body.dataset.ready = '1'; return;
    }
    // The table just chosen is said on the entry page until its first challenge: a wrong number
    // is seen before a word is judged at the wrong table.
    if (before === 'table') setText('seated', 'Now at table ' + s.table + '. Not your table? Tap Change table.');
    body.classList.toggle('seated', $('seated').textContent !== '');
    lastState = s; seatedAt = s.table; where(s);
    $('error').textContent = s.error || '';
    $('judges').textContent = s.judges || '';  // the table's division and list, before the words
    if (s.lexicon) { $('lexicon').textContent = s.lexicon; $('warning').textContent = s.warning || ''; }
    $('adjudicate').disabled = false;
    if (s.verdict) {
      const v = s.verdict, k = key(v);
      keepWords('', '');  // judged: nothing left to give back
      kept = false; later = null; $('verdict').classList.remove('kept'); setText('link', '');
      $('verdict').className = v.acceptable ? 'yes' : 'no';
      for (const [id, field] of LINES) setText(id, v[field] || '');
      if (s.view === 'verdict-held') holdUntil = Date.now() + (s.remaining || 0) * 1000;
      const wasShown = VERDICT_VIEWS.includes(before) && k === shownKey;
      if (!wasShown && document.activeElement && document.activeElement !== body) document.activeElement.blur();
      setView(s.view);
      if (!wasShown) $('verdict').scrollTop = 0;  // a new verdict is read from its top
      shownKey = k;
      if (!wasShown) say(spoken(v));  // once per verdict: never again when its hold ends
      if (s.view === 'verdict' && (!wasShown || before === 'verdict-held')) $('next').focus({preventScroll: true});
    } else {
      const input = $('words');
      const mine = keptWords(s.table);
      if (before === 'connecting' && !s.text && mine && s.view === 'ready') {
        input.value = mine; s.view = 'entry';  // a server that forgot them: given them back
        send({t: 'typed', text: mine});
      } else if (!['ready', 'entry'].includes(before) || document.activeElement !== input || s.error) {
        if (document.activeElement !== input || !s.error) input.value = s.text || '';
      } else if (before === 'entry' && s.view === 'ready' && !s.text) {
        input.value = '';  // the entry's idle timer ran out
      }
      keepWords(s.table, input.value);
      setView(s.view);
      if (!['ready', 'entry'].includes(before) && before !== 'connecting') input.focus();
    }
    body.dataset.ready = '1';
  }

  $('table-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const table = $('table').value.trim();
    if (!table) { $('table-error').textContent = 'Type the table number.'; return; }
    $('table-error').textContent = '';
    send({t: 'table', table, round: $('round').value.trim()});
  });
  $('entry-form').addEventListener('submit', (e) => {
    e.preventDefault();
    if (!ws || ws.readyState !== 1) {
      $('error').textContent = 'Not connected: reconnecting… the words are kept. Tap ADJUDICATE again in a moment.';
      return;
    }
    $('adjudicate').disabled = true;
    setText('seated', ''); body.classList.remove('seated');
    clearTimeout(idle);
    send({t: 'judge', text: $('words').value});
    clearTimeout(slow); heard = false;
    // The verdict is recorded before it is shown. After 3 s say why it waits, and whose the wait
    // is: the server said it has the words (the station is recording), or it has not (the link).
    // 3 s, not 5: a journal another program holds is waited on for about 5 s, then NOT RECORDED.
    slow = setTimeout(() => {
      $('error').textContent = heard
        ? 'Still recording the verdict… Wait on this page: the words are kept. If nothing shows within a minute, call the director.'
        : 'No answer yet: the Wi-Fi link to the word judge is slow. Wait on this page: the words are kept. If nothing shows within a minute, call the director.';
    }, 3000);
  });
  // Nothing is cut silently: an insertion (typing, a paste, a drop) that would make the entry
  // longer than a play forms is refused whole and the player told its real length (entry.py).
  function refuseLong(n) {
    $('error').textContent = tooLong.replace('{n}', n === 1 ? '1 character' : n.toLocaleString('en') + ' characters');
  }
  $('words').addEventListener('beforeinput', (e) => {
    const input = $('words');
    before = input.value;
    if (!maxEntry || !e.inputType.startsWith('insert') || !e.cancelable) return;
    let text = e.data;
    if ((text === null || text === undefined) && e.dataTransfer) text = e.dataTransfer.getData('text/plain');
    if (typeof text !== 'string') return;  // the input handler checks the result
    if (input.value.length - (input.selectionEnd - input.selectionStart) + text.length > maxEntry) {
      e.preventDefault(); refuseLong(text.length);
    }
  });
  $('words').addEventListener('input', () => {
    const input = $('words');
    if (maxEntry && input.value.length > maxEntry) {  // an insertion that could not be stopped
      const n = input.value.length - before.length;
      input.value = before; refuseLong(Math.max(n, 1)); return;
    }
    send({t: 'typed', text: $('words').value});
    keepWords(seatedAt, $('words').value);
    if (view === 'ready' || view === 'entry') setView($('words').value.trim() ? 'entry' : 'ready');
    clearTimeout(idle);  // the station's idle timer: an unfinished entry is cleared (protocol.py)
    if (entryIdle > 0 && $('words').value.trim()) idle = setTimeout(() => send({t: 'expire'}), entryIdle * 1000 + 100);
  });
  $('change').addEventListener('click', () => send({t: 'leave'}));
  $('next').addEventListener('click', next);
  $('recheck-button').addEventListener('click', () => { if (!kept) send({t: 'recheck'}); });
  // After its hold a verdict goes on a key that means "next": a letter, a digit, Space or Enter
  // (R rechecks). A modifier alone (a hand on Shift, Ctrl before '+' to zoom), Tab, an arrow, a
  // function key, a shortcut (Ctrl/Alt/Meta held) or a key held down from before does nothing.
  const MEANS_NEXT = /^[\p{L}\p{N} ]$/u;
  document.addEventListener('keydown', (e) => {
    if (view !== 'verdict' || e.repeat || e.ctrlKey || e.altKey || e.metaKey || e.isComposing) return;
    if (e.key !== 'Enter' && !MEANS_NEXT.test(e.key)) return;
    if ((e.key === 'Enter' || e.key === ' ') && e.target instanceof HTMLButtonElement) return;  // the button's own
    e.preventDefault();
    if (e.key === 'r' || e.key === 'R') { if (!kept) send({t: 'recheck'}); } else next();
  });
  // The window's size for the CSS (phone.css): --vw, --vh and a class per smaller screen's bound
  // it is within, in rem (#rem is 10 rem wide): a media query's em is scaled by WebKit's zoom.
  const BOUNDS = [['h40', 40], ['h34', 33.75], ['h28', 27.5], ['h20', 20], ['h16', 16.25], ['h11', 11.25]];
  function measure() {
    const root = document.documentElement, rem = $('rem').getBoundingClientRect().width / 10 || 16;
    const high = innerHeight / rem;
    for (const [name, most] of BOUNDS) root.classList.toggle(name, high <= most);
    root.classList.toggle('tablet', innerWidth / rem >= 43.75 && high >= 37.5);
    root.style.setProperty('--vw', innerWidth / 100 + 'px'); root.style.setProperty('--vh', innerHeight / 100 + 'px');
  }
  // A hidden copy of the verdict laid out once, soon after loading: WebKitGTK finds a font for
  // each new glyph and size on first use (the first verdict took 150-380 ms longer). Never painted.
  function warmFonts() {
    const copy = $('verdict').cloneNode(true);
    copy.removeAttribute('aria-labelledby');  // its ids kept: the verdict's own styles
    copy.setAttribute('aria-hidden', 'true'); copy.className = 'no';
    copy.style.cssText = 'display:flex;visibility:hidden;pointer-events:none';
    const sample = '\u2714\u2718 UNACCEPTABLE. Words: QI ZZZ; the play comes off the board. Table 12 · Round 3 — #1, 13:38 \u26a0';
    for (const e of copy.querySelectorAll('p, h1, #mark')) e.textContent = sample;
    body.appendChild(copy); void copy.offsetWidth; copy.remove();
  }
  setTimeout(warmFonts, 250);
  addEventListener('resize', measure);
  if (window.ResizeObserver) new ResizeObserver(measure).observe($('rem'));  // the text size changed
  measure();
  connect();
})();
