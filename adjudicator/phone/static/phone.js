'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const body = document.body;
  let ws = null, timer = null, slow = null, idle = null, entryIdle = 0, retry = 0, view = 'connecting', waitForTouch = false;
  let maxEntry = 0, tooLong = '', before = '', eventName = '';

  function send(frame) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(frame)); }
  function setView(v) { view = v; body.dataset.view = v; }
  function notice(title, text) {
    $('notice-title').textContent = title; $('notice-text').textContent = text; setView('notice');
  }

  function connect() {
    waitForTouch = false;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    ws = new WebSocket(scheme + '//' + location.host + '/ws');
    ws.onopen = () => { retry = 0; };
    ws.onmessage = (e) => {
      let m; try { m = JSON.parse(e.data); } catch (err) { return; }
      if (m.t === 'hello') hello(m); else if (m.t === 'state') show(m);
      else if (m.t === 'notice') notice(m.title, m.text);
    };
    ws.onclose = (e) => {
      ws = null; clearTimeout(timer);
      if (e.code === 4003) { body.dataset.ready = '1'; return; }  // refused: the notice stays
      if (e.code === 4000) { notice('Opened again', 'This judge was opened again on this device.'); return; }
      if (e.code === 4001) { notice('Paused', 'Touch the screen to carry on.'); waitForTouch = true; return; }
      if (view !== 'notice') { $('status').textContent = 'Connection lost: reconnecting…'; setView('connecting'); }
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

  function show(s) {
    const before = view;
    clearTimeout(timer); clearTimeout(slow);
    if (s.remaining !== null && s.remaining !== undefined) {
      timer = setTimeout(() => send({t: 'expire'}), s.remaining * 1000 + 60);
    }
    if (s.view === 'table') {
      $('table-error').textContent = s.error || '';  // a table the station refused, and why
      $('where').textContent = eventName || 'Word judge';
      setView('table'); $('table').focus(); body.dataset.ready = '1'; return;
    }
    const count = s.count === null || s.count === undefined ? '' : ' · challenges here: ' + s.count;
    $('where').textContent = 'Table ' + s.table + (s.round ? ' · Round ' + s.round : '') + count;
    $('error').textContent = s.error || '';
    $('judges').textContent = s.judges || '';  // the table's division and list, before the words
    if (s.lexicon) { $('lexicon').textContent = s.lexicon; $('warning').textContent = s.warning || ''; }
    $('adjudicate').disabled = false;
    if (s.verdict) {
      const v = s.verdict;
      $('verdict').className = v.acceptable ? 'yes' : 'no';
      for (const [id, key] of [['recheck', 'recheck'], ['mark', 'mark'], ['word', 'word'], ['plain', 'plain'],
        ['played', 'words'], ['consequence', 'consequence'], ['record', 'record'], ['v-lexicon', 'lexicon'],
        ['v-warning', 'warning'], ['secondary', 'secondary'], ['problem', 'problem']]) {
        $(id).textContent = v[key] || '';
      }
      if (document.activeElement) document.activeElement.blur();
      setView(s.view);
    } else {
      const input = $('words');
      if (!['ready', 'entry'].includes(before) || document.activeElement !== input || s.error) {
        if (document.activeElement !== input || !s.error) input.value = s.text || '';
      } else if (before === 'entry' && s.view === 'ready' && !s.text) {
        input.value = '';  // the entry's idle timer ran out
      }
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
    clearTimeout(idle);
    send({t: 'judge', text: $('words').value});
    clearTimeout(slow);
    slow = setTimeout(() => {  // the verdict is recorded before it is shown: say why it waits
      $('error').textContent = 'Still recording the verdict… if this stays, call the director.';
    }, 5000);
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
    if (view === 'ready' || view === 'entry') setView($('words').value.trim() ? 'entry' : 'ready');
    clearTimeout(idle);  // the station's idle timer: an unfinished entry is cleared (protocol.py)
    if (entryIdle > 0 && $('words').value.trim()) idle = setTimeout(() => send({t: 'expire'}), entryIdle * 1000 + 100);
  });
  $('change').addEventListener('click', () => send({t: 'leave'}));
  $('next').addEventListener('click', () => send({t: 'next'}));
  $('recheck-button').addEventListener('click', () => send({t: 'recheck'}));
  document.addEventListener('keydown', (e) => {
    if (view !== 'verdict') return;
    e.preventDefault();
    send({t: (e.key === 'r' || e.key === 'R') ? 'recheck' : 'next'});
  });
  connect();
})();
