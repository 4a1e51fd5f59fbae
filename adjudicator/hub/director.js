"use strict";
const key = new URLSearchParams(location.search).get("key") || "";

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}
function row(cells) { const tr = el("tr"); tr.append(...cells); return tr; }
function localTime(iso) {
  const d = new Date(iso);
  return isNaN(d) ? "" : d.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit",
                                                    second: "2-digit", hourCycle: "h23"});
}
function cell(text, cls, label) {  // LABEL: said before the text where rows are cards
  const td = el("td", text, cls);
  if (label) td.dataset.label = label;
  return td;
}
function cut(text, whole) {  // one line, cut; the whole text on hover and on focus
  const span = el("span", text, "cut");
  span.title = whole || text;
  span.tabIndex = 0;
  span.dataset.focus = "cut:" + span.title;
  return span;
}
function typed(text) {  // what a player or a peer typed (pictured by the hub): kept in its box
  return el("span", text, "typed");
}
function nobr(text) { return el("span", text, "nobr"); }
function stationCell(c) {  // a new station's rows are marked until the director accepts it
  const td = cell(null, "station");
  td.append(cut(c.station));
  if (c.new) td.append(" ", el("span", "new: not accepted", "alarm"));
  return td;
}
const drawn = {};  // what each list shows now (JSON): drawn again only when that changes
// A live update never moves the director's hand: whatever has the focus (a name, a button, the
// rename field) is found again in the list drawn anew by its data-focus (what it is and for
// whom, not where it is), with the text selected in it, and the page stays where it was
// scrolled. A control still waiting for the hub's answer stays busy in the new list (busy).
const busy = new Set();
function fill(id, rows, what) {
  // WHAT: the data ROWS() draws; unchanged, nothing is redrawn (a name hovered stays whole)
  const said = what === undefined ? null : JSON.stringify(what);
  if (said !== null && drawn[id] === said) return;
  drawn[id] = said;
  const body = document.getElementById(id);
  const focused = document.activeElement;
  const again = focused && focused !== document.body && body.contains(focused)
    ? focused.dataset.focus || null : null;
  const selection = again && focused.tagName === "INPUT"
    ? [focused.selectionStart, focused.selectionEnd, focused.selectionDirection] : null;
  const x = window.scrollX, y = window.scrollY;
  body.replaceChildren(...rows());
  if (again !== null) {
    const same = [...body.querySelectorAll("[data-focus]")].find(e => e.dataset.focus === again);
    if (same) {
      same.focus({preventScroll: true});
      if (selection && same.setSelectionRange) same.setSelectionRange(...selection);
    }
  }
  if (window.scrollX !== x || window.scrollY !== y) window.scrollTo(x, y);
}
function redraw(id) { drawn[id] = undefined; if (last_state) render(last_state); }
function askHub(what, said) {  // a director's POST to api/WHAT (accept, rename, reject)
  return fetch(`api/${what}?key=` + encodeURIComponent(key), {method: "POST",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(said)});
}
function wordsCell(c) {
  const td = cell(null, "words");
  td.append(typed(c.words), c.recheck ? " (recheck)" : "");
  return td;
}
function latestCell(last) {  // a table's latest challenge: its words in their box, its verdict
  const td = cell(null, "words", "latest");
  if (last) td.append(typed(last.words), ": ", nobr(last.verdict), " ",
                     nobr(`(${localTime(last.time)})`));
  return td;
}
let chosen = null;  // the key of the table whose latest challenges are shown, or null: all
let last_state = null;
function render(s) {
  last_state = s;
  document.getElementById("clock").textContent = localTime(s.time);
  const notice = document.getElementById("notice");
  if (s.tsh) {
    const since = new Date(s.tsh.since);
    const hhmm = isNaN(since) ? "" : since.toLocaleTimeString([], {hour: "2-digit",
                                                                   minute: "2-digit", hourCycle: "h23"});
    notice.textContent = `tsh file unreadable since ${hhmm}: ${s.tsh.problem}` +
      (s.tsh.names_kept ? " (players' names shown are from its last good reading)" : "");
    notice.hidden = false;
  } else { notice.hidden = true; notice.textContent = ""; }
  renderAlarms(s.alarms || []);  // director-alarms.js
  fill("event-top", () => s.event ? [  // the event: its name, version, each division's list
    el("b", s.event.name || "(the event has no name)"), " ", nobr(`version ${s.event.version}`),
    ": ", ...s.event.divisions.flatMap((d, i) => {
      const one = el("span", `${d.name}: ${d.lexicon}, ${d.rule}`, "division");
      if (d.tables) one.title = `division ${d.name}: tables ${d.tables}`;
      return i ? ["; ", one] : [one];
    })]
    : [document.createTextNode("no event set: the stations' lists are compared with each other")],
    s.event || null);
  renderCounts(s);  // director-alarms.js: stations live, silent, waiting
  const c = s.checked || {rows: 0, agree: 0, disagree: 0, other_list: 0, unchecked: 0};
  fill("checked", () => {  // the hub's own check of every verdict (audit.py), in short
    const parts = [`Verdicts checked: ${c.agree + c.disagree + c.other_list}`];
    parts.push(" · ", el("span", `${c.disagree} disagree${c.disagree === 1 ? "s" : ""}`,
                         c.disagree ? "bad" : ""));  // said at 0 too: at a glance, all is well
    if (c.other_list) parts.push(" · ", el("span", `${c.other_list} on another list`, "bad"));
    if (c.unchecked) parts.push(` · ${c.unchecked} not checked` +
                                (s.event ? " (see the alarms)" : ": no event set"));
    return parts;
  }, c);
  const waiting = s.waiting || [];
  document.getElementById("waiting-panel").hidden = waiting.length === 0;
  fill("waiting", () => waiting.map(w => {  // stations the director has not accepted yet
    const actions = cell(null, "wrap");
    actions.append(acceptButton(w, w.wants ? "Accept in its place" : "Accept"), rejectButton(w));
    const name = cell(null, "station");
    name.append(cut(w.name));
    const from = cell(null, "wrap", "from");
    from.append(nobr(w.address));
    const wants = cell(null, "wrap", w.wants ? "wants the name of" : "");
    if (w.wants) wants.append(cut(w.wants));
    return row([name, from, cell(localTime(w.joined), "heard", "joined"),
                cell(localTime(w.heard), "heard", "heard"), cell(w.rows, "n", "rows"),
                wants, actions]);
  }), waiting);
  fill("stations", () => s.stations.map(st => {
    const alarms = cell(null, "wrap", st.alarms.length ? "alarms" : "");
    for (const a of st.alarms) alarms.appendChild(el("span", a, "alarm"));
    if (st.new && st.key) alarms.appendChild(acceptButton(st));
    else if (st.key) alarms.appendChild(renameButton(st));  // at the right of the last alarm
    const name = cell(null, "station");
    const named = el("span", null, "named");
    if (st.trouble !== null && st.trouble !== undefined) {
      const mark = el("span", "!", "mark");  // not ⚠: Firefox ESR's fonts draw it as a box
      mark.title = "in trouble: see its alarms";
      mark.setAttribute("role", "img");
      mark.setAttribute("aria-label", "in trouble");
      named.append(mark);
    }
    named.append(cut(st.name));
    name.append(named);
    const lists = cell(null, "wrap lists", "lists");
    const said = st.lists && st.lists.length ? st.lists : st.lexicon ?
      [{division: "", lexicon: st.lexicon, fingerprint: st.fingerprint, rule: ""}] : [];
    for (const l of said) {  // "B: NWL2023, double a3a3a3a3a3a3": the fingerprint whole
      const one = el("span", (l.division ? `${l.division}: ` : "") + l.lexicon +
        (l.rule ? `, ${l.rule}` : "") + (l.fingerprint ? " " : ""), "one");
      if (l.fingerprint) one.append(nobr(l.fingerprint));
      lists.append(one);
    }
    const tr = row([name, cell(st.division || "", "wrap", st.division ? "division" : ""), lists,
                    cell(st.printer, "wrap", "printer"), cell(st.challenges, "n", "challenges"),
                    cell(st.seen === null ? "never" : `${st.seen} s ago`, "heard", "heard"),
                    alarms]);
    if (st.trouble !== null && st.trouble !== undefined) tr.className = "trouble";
    return tr;
  }), s.stations);
  const chosenTable = s.tables.find(t => chosen !== null && t.key === chosen);
  fill("tables", () => s.tables.map(t => {  // one row a table, whoever judged there (hub/tables.py)
    const last = t.recent[0];
    const table = cell(null, "table", "Table");
    table.append(cut(t.table, t.whole));
    const devices = cell(null, "devices", "Judged at");
    for (const d of t.devices) {
      const one = el("span", null, "device");
      one.append(cut(d.name, d.whole), ` (${d.challenges})`);
      if (d.new) one.append(" ", el("span", "new: not accepted", "alarm"));
      devices.append(one);
    }
    if (t.more_devices) devices.append(el("span", `and ${t.more_devices} more`, "muted"));
    const players = cell(null, "wrap", t.players ? "players" : "");
    if (t.players) players.append(typed(t.players));
    const tr = row([table, players, devices,
                    cell(t.challenges, "n", "challenges"), cell(t.acceptable, "n", "✔"),
                    cell(t.unacceptable, "n", "✘"),
                    latestCell(last)]);
    if (t === chosenTable) tr.className = "chosen";
    tr.onclick = () => {
      chosen = t === chosenTable ? null : t.key;
      render(last_state);
    };
    tr.onkeydown = e => {  // by keyboard: Enter or Space on the table's name (tabbed to)
      if ((e.key === "Enter" || e.key === " ") && !(e.target instanceof HTMLButtonElement)) {
        e.preventDefault(); tr.onclick();
      }
    };
    return tr;
  }), {tables: s.tables, chosen});
  document.getElementById("tables-more").textContent = s.tables_more ?  // hub/tables.py
    `and ${s.tables_more.toLocaleString("en")} more tables (those judged at most recently ` +
    "by each station are listed)" : "";
  document.getElementById("only").textContent = chosenTable ?
    `(table ${chosenTable.table}: click it again for every table)` : "";
  const shown = chosenTable ? chosenTable.recent : s.latest;
  fill("latest", () => shown.map(c => {
    const flags = cell(null, "flags");
    for (const f of c.flags) flags.append(el("span", f, "flag-chip"));
    const table = cell(null, "table", "table");
    table.append(cut(c.table || "-"));
    return row([cell(localTime(c.time), "time"), stationCell(c), table,
                wordsCell(c),
                cell(c.verdict, "verdict verdict-" + c.verdict), flags]);
  }), {shown, chosen});
}
// The hub sends the whole board once, then only what changed (stream.py): keep it here.
let board = null;
let received = 0;  // performance.now() when the hub's last message came
function apply(m) {
  if (m.full) {
    board = {stations: new Map(m.stations.map(s => [s.id, s])),
             tables: new Map(m.tables.map(t => [t.key, t])),
             latest: m.latest, alarms: m.alarms, tsh: m.tsh, waiting: m.waiting,
             event: m.event, checked: m.checked, tables_more: m.tables_more};
  } else if (board) {
    for (const part of ["stations", "tables"]) {
      const change = m[part], map = board[part], key = part === "stations" ? "id" : "key";
      if (change) {
        for (const k of change.drop) map.delete(k);
        for (const entry of change.set) map.set(entry[key], entry);
      }
      const order = m[part + "_order"];
      if (order) board[part] = new Map(order.map(k => [k, map.get(k)]).filter(e => e[1]));
    }
    for (const part of ["latest", "alarms", "tsh", "waiting", "event", "checked",
                        "tables_more"]) {
      if (part in m) board[part] = m[part];
    }
  } else return;
  board.time = m.time;
  received = performance.now();
  const hubNow = Date.parse(m.time);
  render({time: m.time, tsh: board.tsh, latest: board.latest, alarms: board.alarms,
          waiting: board.waiting, event: board.event, checked: board.checked,
          tables: [...board.tables.values()], tables_more: board.tables_more,
          stations: [...board.stations.values()].map(s => ({...s, seen: s.heard === null ? null
            : Math.max(0, Math.round((hubNow - Date.parse(s.heard)) / 1000))}))});
}
function say(text, down) {
  const live = document.getElementById("live");
  live.textContent = text;
  live.className = down ? "down" : "";
}
async function follow() {
  const url = "events?key=" + encodeURIComponent(key);
  let wait = 2000;
  for (;;) {
    try {
      const r = await fetch(url, {cache: "no-store"});
      if (r.status === 503) {  // too many live views: the hub says which to close
        say((await r.text()).slice(0, 300), true);
        wait = 10000;
      } else if (!r.ok) {
        say(`hub refused (HTTP ${r.status}): reload with the address the hub printed`, true);
        wait = 10000;
      } else {
        say("live", false);
        wait = 2000;
        const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const {value, done} = await reader.read();
          if (done) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = event.split("\n").filter(l => l.startsWith("data: "))
                              .map(l => l.slice(6)).join("\n");
            if (data) apply(JSON.parse(data));
          }
        }
        wait = 200;  // the hub ended the stream (every ten minutes): follow again at once
      }
    } catch (e) {
      say("hub not answering: retrying", true);
    }
    await new Promise(done => setTimeout(done, wait));
  }
}
setInterval(() => {  // silent for a while: say so (the hub sends something every second)
  if (board && performance.now() - received > 5000) say("hub not answering: retrying", true);
}, 1000);
document.addEventListener("DOMContentLoaded", follow);  // every script of the page read
