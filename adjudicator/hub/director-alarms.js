"use strict";
/* The director's alarms, grouped: one line a station's alarms of one kind (the hub's "group",
   hub/alarmlist.py), counted, opening to each alarm (<details>); the first SHOWN groups in view,
   the rest behind one more line; a group marked handled is greyed and listed last until its
   cause returns (hub/handled.py). And the stations counted at the top: live, silent, waiting. */
const SHOWN = 10;  // groups in view before "N more": the most serious, on the first screen
const opened = new Set();  // groups the director opened (and "more"): kept open through updates
function groupsOf(alarms) {  // in the hub's order (the most serious first), waiting first of all
  const groups = new Map();
  for (const a of alarms) {
    const id = a.group || `${a.text}\t${a.station}`;
    if (!groups.has(id)) groups.set(id, {id, station: a.station, alarms: [], handled: !!a.handled,
                                         waiting: !!a.waiting, level: a.level});
    groups.get(id).alarms.push(a);
  }
  const all = [...groups.values()];
  return [...all.filter(g => g.waiting), ...all.filter(g => !g.waiting && !g.handled),
          ...all.filter(g => !g.waiting && g.handled)];
}
function toWaiting(e) {  // "N new stations wait for you": to them, the focus on their panel
  e.preventDefault();
  const panel = document.getElementById("waiting-panel");
  panel.scrollIntoView({block: "start"});
  panel.focus({preventScroll: true});
}
function alarmLine(a, parent) {  // one alarm's words into PARENT: where, what, when
  parent.append(cut(a.station));
  if (a.table && a.table !== "-") parent.append(", table ", el("span", a.table, "iso"));
  parent.append(": ", el("span", a.text, "iso"));
  if (a.time) parent.append(" ", nobr(`(${localTime(a.time)})`));
  if (a.key) {
    parent.append(" ", acceptButton({key: a.key}, "Accept in its place", "Only if you " +
      "replaced that station: this key then sends under the name, the old one no longer can"));
  }
}
function handledButton(g) {  // a toggle: pressed while the group is marked handled
  const b = el("button", g.handled ? "Handled ✓" : "Mark handled", "handled");
  b.setAttribute("aria-pressed", g.handled ? "true" : "false");
  b.setAttribute("aria-label", `Handled: ${g.station}, ${g.alarms[0].text}`);
  b.title = g.handled ? "Marked handled: press to take the mark back" :
    "Mark handled: greyed until a new alarm of this kind comes from this station";
  return control(b, "handled:" + g.id, () => askHub("handled", {group: g.id,
                                                                 handled: !g.handled}));
}
function groupItem(g) {
  const level = g.level === undefined ? 5 : g.level;
  const li = el("li", null, `level-${level}` + (level > 0 && g.alarms[0].time ? " flag" : "") +
                            (g.handled ? " handled" : ""));
  if (g.waiting) {
    const a = el("a", g.alarms[0].text);
    a.href = "#waiting-panel";
    a.dataset.focus = "to-waiting";
    a.addEventListener("click", toWaiting);
    li.append(a);
    return li;
  }
  const n = g.alarms.length;
  const challenges = g.alarms.reduce((sum, a) => sum + (a.count || 1), 0);
  const said = el("span", g.handled ? "handled" : "", "said");
  if (n === 1) {
    const line = el("span", null, "line");
    alarmLine(g.alarms[0], line);
    li.append(line);
  } else {
    const details = el("details");
    details.open = opened.has(g.id);
    details.addEventListener("toggle", () => {
      if (details.open) opened.add(g.id); else opened.delete(g.id);
    });
    const summary = el("summary");
    summary.dataset.focus = "group:" + g.id;
    const first = g.alarms[0];  // its station (whole, never cut: issue 43), its latest alarm
    const who = el("span", g.station + (first.table && first.table !== "-" ? "," : ":"), "who");
    summary.append(who, " ");  // (the spaces: for what reads it as text; the line's gap draws)
    if (first.table && first.table !== "-") summary.append(el("span", `table ${first.table}:`,
                                                              "iso where"), " ");
    const text = el("span", first.text, "iso first");
    text.title = first.text;
    summary.append(text, " ", el("span", `${n} alarms` + (challenges > n ? `, ${challenges} in all`
                                                                    : ""), "count"));
    const each = el("ul");
    for (const a of g.alarms) { const one = el("li"); alarmLine(a, one); each.append(one); }
    details.append(summary, each);
    li.append(details);
  }
  li.append(said, handledButton(g));
  return li;
}
function renderAlarms(alarms) {
  const groups = groupsOf(alarms);
  const open = groups.filter(g => !g.handled).length;
  document.getElementById("alarm-count").textContent = groups.length ?  // "(30 in 25 lines...)"
    `(${alarms.length} in ${groups.length} line${groups.length === 1 ? "" : "s"}, the most ` +
    `serious first${groups.length > open ? `; ${groups.length - open} handled` : ""})` : "";
  document.getElementById("alarms-panel").classList.toggle("calm", open === 0);
  fill("alarms", () => {
    if (!groups.length) return [el("li", "none: every station is heard", "none")];
    const items = groups.map(groupItem);
    if (items.length <= SHOWN + 1) return items;
    const more = el("details");
    more.open = opened.has("more");
    more.addEventListener("toggle", () => {
      if (more.open) opened.add("more"); else opened.delete("more");
    });
    const summary = el("summary", `${items.length - SHOWN} more (less serious, or handled)`);
    summary.dataset.focus = "more-alarms";
    const rest = el("ul");
    rest.append(...items.slice(SHOWN));
    more.append(summary, rest);
    const li = el("li", null, "more");
    li.append(more);
    return [...items.slice(0, SHOWN), li];
  }, alarms);
}
function renderCounts(s) {  // "60 stations: 55 live, 5 silent, 2 waiting"
  const silent = s.stations.filter(st => st.alarms.includes("silent")).length;
  const live = s.stations.length - silent, waiting = (s.waiting || []).length;
  fill("counts", () => {
    const parts = [`${s.stations.length} station${s.stations.length === 1 ? "" : "s"}: ` +
                   `${live} live, `, el("span", `${silent} silent`, silent ? "bad" : "")];
    if (waiting) {
      const a = el("a", `${waiting} waiting`, "bad");
      a.href = "#waiting-panel";
      a.dataset.focus = "counts-waiting";
      a.addEventListener("click", toWaiting);
      a.title = "waiting for you to accept or reject them";
      parts.push(", ", a);
    }
    return parts;
  }, [s.stations.length, silent, waiting]);
}
